import { parseSource } from '../../src-shared/domain/source.js';
import { PRIVATE_PATHS_ENV, PrivatePaths } from '../security/privatePaths.js';
import { inspectSource, type PrivatePathCheck } from '../security/sourceInspection.js';
import { databaseOrigin } from './databases.js';
import { BadInputError } from './errors.js';

/**
 * The worker's own wall around the app's files (it trusts no caller, main included): every
 * source it opens for a person is judged again by the same `inspectSource` main's dispatcher
 * uses. Network origins are left to the egress gate, which refuses them unless an approved
 * call is using them. Set up from `MAPWRIGHT_PRIVATE_PATHS` (worker-host/workerSpawn.ts).
 */
const privatePaths = readPrivatePaths();
/** The private paths, and the PostGIS connections main told this worker about (issue 16). */
const check: PrivatePathCheck = {
  isPrivate: (path) => privatePaths.isPrivate(path),
  mentionedIn: (text) => privatePaths.mentionedIn(text),
  databaseOrigin,
};

function readPrivatePaths(): PrivatePaths {
  try {
    const parsed = JSON.parse(process.env[PRIVATE_PATHS_ENV] ?? '') as { roots?: string[]; exceptions?: string[] };
    return new PrivatePaths(parsed.roots ?? [], parsed.exceptions ?? []);
  } catch {
    return new PrivatePaths([]);
  }
}

/** Throws BadInputError when `source` may not be opened; returns it unchanged otherwise. */
export function guardSource(source: string): string {
  const verdict = inspectSource(parseSource(source).path, check);
  if (!verdict.ok) throw new BadInputError(verdict.message.charAt(0).toUpperCase() + verdict.message.slice(1));
  return source;
}

import { parseSource } from '../../src-shared/domain/source.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import { datasetReferences, sqlInDatasetProblem } from '../security/datasetReferences.js';
import { PRIVATE_PATHS_ENV, PrivatePaths } from '../security/privatePaths.js';
import { BadInputError } from './errors.js';

/**
 * The worker's own wall around the app's files (it trusts no caller, main included): every
 * source it opens for a person is classified again, and refused when it is — or, for a VRT or
 * other XML dataset, refers to — a file inside Mapwright's data folder. Network references
 * inside such files are left to the egress gate, which refuses them unless an approved call
 * is using that origin. Set up from `MAPWRIGHT_PRIVATE_PATHS` (worker-host/workerSpawn.ts).
 */
let privatePaths = readPrivatePaths();

function readPrivatePaths(): PrivatePaths {
  try {
    const parsed = JSON.parse(process.env[PRIVATE_PATHS_ENV] ?? '') as { roots?: string[]; exceptions?: string[] };
    return new PrivatePaths(parsed.roots ?? [], parsed.exceptions ?? []);
  } catch {
    return new PrivatePaths([]);
  }
}

/** For tests of this module in one process. */
export function setPrivatePathsForTest(paths: PrivatePaths): void {
  privatePaths = paths;
}

const MAX_DEPTH = 4;

/** Throws BadInputError when `source` may not be opened; returns it unchanged otherwise. */
export function guardSource(source: string): string {
  check(parseSource(source).path, 0);
  return source;
}

function check(path: string, depth: number): void {
  const c = classifySource(path);
  if (c.kind === 'refused') throw new BadInputError(`Cannot open '${path}': ${c.reason}`);
  if (c.kind === 'network') return;
  if (privatePaths.isPrivate(c.path)) throw new BadInputError(`'${path}' is inside Mapwright's own data folder; no tool may open it`);
  if (c.kind !== 'local') return;
  const refs = datasetReferences(c.path);
  if (refs.sources.length && depth >= MAX_DEPTH) throw new BadInputError(`'${path}' nests datasets more than ${MAX_DEPTH} deep`);
  for (const ref of refs.sources) {
    try {
      check(ref, depth + 1);
    } catch (err) {
      throw new BadInputError(`'${path}' refers to a source that may not be opened: ${(err as Error).message}`);
    }
  }
  const problem = refs.sql.map((sql) => sqlInDatasetProblem(sql, privatePaths)).find(Boolean);
  if (problem) throw new BadInputError(`'${path}' holds SQL (SrcSQL) that ${problem}; it is not opened`);
}

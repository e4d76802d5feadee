import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { LineageInput } from '../../src-shared/domain/lineage.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import { withoutSecrets } from './lineageParameters.js';

/** Files larger than this are recorded without a checksum: hashing must not hold a call for minutes. */
export const MAX_HASHED_BYTES = 512 * 1024 * 1024;

/**
 * Checksums already computed, by path, size and modification time: the same input of ten runs
 * is read once. Small (a project has dozens of inputs, not thousands).
 */
const known = new Map<string, string>();
const KNOWN_LIMIT = 256;

/**
 * One input of a call as lineage records it: the file's SHA-256 (streamed), size and time.
 * No checksum — with the reason in `note` — for a database table, a network source, a folder
 * or a file over the cap; a Shapefile's checksum covers its `.shp` and says so; an archive
 * member is covered by the archive's checksum. Never throws: a file gone is recorded as gone.
 */
export async function inputChecksum(source: string, signal?: AbortSignal): Promise<LineageInput> {
  const { path, sublayer } = parseSource(source);
  const base = { path: withoutSecrets(path), ...(sublayer ? { sublayer: withoutSecrets(sublayer) } : {}) };
  const none = (note: string) => ({ ...base, sha256: null, bytes: null, modified: null, note });
  const c = classifySource(path);
  if (c.kind === 'database') return none('a database table: no file to hash');
  if (c.kind === 'network') return none('a network source: not hashed');
  if (c.kind === 'refused') return none(`not hashed: ${c.reason}`);
  const file = c.kind === 'archive' ? await archiveFile(c.path) : c.path;
  const st = file ? await stat(file).catch(() => null) : null;
  if (!file || !st) return none('not found when the output was made');
  const facts = { ...base, bytes: st.size, modified: st.mtime.toISOString() };
  if (!st.isFile()) return { ...facts, bytes: null, sha256: null, note: 'a folder: not hashed' };
  if (st.size > MAX_HASHED_BYTES)
    return { ...facts, sha256: null, note: `over ${MAX_HASHED_BYTES / 1024 / 1024} MB: not hashed, to keep the call quick` };
  const note =
    c.kind === 'archive'
      ? `the checksum of the archive ${withoutSecrets(file)}`
      : /\.shp$/i.test(file)
        ? 'the checksum of the .shp only; the .dbf, .shx and .prj beside it are not covered'
        : undefined;
  try {
    const sha256 = await sha256Of(file, st.size, st.mtimeMs, signal);
    return { ...facts, sha256, ...(note ? { note } : {}) };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ...facts, sha256: null, note: `could not be read: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500) };
  }
}

async function sha256Of(file: string, size: number, mtimeMs: number, signal?: AbortSignal): Promise<string> {
  const key = JSON.stringify([file, size, mtimeMs]);
  const cached = known.get(key);
  if (cached) return cached;
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, signal ? { signal } : {}), hash);
  const hex = hash.digest('hex');
  if (known.size >= KNOWN_LIMIT) known.delete(known.keys().next().value!);
  known.set(key, hex);
  return hex;
}

/** The archive file an archive path runs through: the longest prefix that is a file. */
async function archiveFile(inner: string): Promise<string | null> {
  let candidate = inner;
  for (let i = 0; i < 32; i++) {
    const st = await stat(candidate).catch(() => null);
    if (st?.isFile()) return candidate;
    const up = dirname(candidate);
    if (up === candidate) return null;
    candidate = up;
  }
  return null;
}

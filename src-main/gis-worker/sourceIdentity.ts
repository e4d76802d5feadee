import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { classifySource } from '../../src-shared/security/sourceClass.js';

/**
 * A local source's identity for cache keys and ETags: its file's path, size and mtime (for an
 * archive member or a subdataset, the archive's or container's file). null when it cannot be
 * known from here — a network source, a folder, a missing file — and must not be cached.
 * Main keys its tile cache and ETags by it, the worker its served tables and open rasters.
 */
export async function sourceIdentity(source: string): Promise<string | null> {
  const c = classifySource(source);
  if (c.kind !== 'local' && c.kind !== 'archive') return null;
  // An archive's path runs on into its member: the file is the longest prefix that is one.
  let candidate = c.path;
  for (let i = 0; i < 32; i++) {
    const st = await stat(candidate).catch(() => null);
    if (st?.isFile()) return JSON.stringify([source, candidate, st.size, st.mtimeMs]);
    if (st || c.kind === 'local') return null;
    const up = dirname(candidate);
    if (up === candidate) return null;
    candidate = up;
  }
  return null;
}

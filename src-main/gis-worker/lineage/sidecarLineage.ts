import { randomUUID } from 'node:crypto';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { LINEAGE_SIDECAR_SUFFIX, MAX_LINEAGE_CHARS } from '../../../src-shared/domain/lineage.js';

/**
 * Lineage beside a file whose format has no metadata of its own (GeoJSON, Shapefile,
 * FlatGeobuf, CSV…): `<file>.lineage.json`. Written to a temporary name and renamed, so a
 * reader never sees half a record.
 */
export function sidecarPath(path: string): string {
  return `${path}${LINEAGE_SIDECAR_SUFFIX}`;
}

export async function writeSidecarLineage(path: string, json: string): Promise<string> {
  const target = sidecarPath(path);
  const temp = `${target}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, json, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  return target;
}

/** The sidecar's text, null when there is none; a huge one is read only far enough to be refused. */
export async function readSidecarLineage(path: string): Promise<string | null> {
  const target = sidecarPath(path);
  const st = await stat(target).catch(() => null);
  if (!st?.isFile()) return null;
  const handle = await open(target, 'r');
  try {
    const cap = Math.min(st.size, MAX_LINEAGE_CHARS * 4 + 1);
    const buffer = Buffer.alloc(cap);
    const { bytesRead } = await handle.read(buffer, 0, cap, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

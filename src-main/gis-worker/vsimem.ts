import { randomUUID } from 'node:crypto';
import { gdal } from './gdal.js';

/** A unique in-memory path; concurrent requests must never share one. */
export function vsimemPath(ext: string): string {
  return `/vsimem/mapwright-${randomUUID()}.${ext}`;
}

/** Takes the bytes out of /vsimem and frees them; a no-op if GDAL never wrote the file. */
export function releaseVsimem(path: string): Buffer | null {
  try {
    return gdal.vsimem.release(path);
  } catch {
    return null;
  }
}

import type { Dataset, RasterBand } from 'gdal-async';
import { BadInputError } from '../errors.js';
import { gdal } from '../gdal.js';
import { openSource } from '../openSource.js';
import type { AlgorithmContext } from './types.js';

/** Every raster output: tiled and compressed, BigTIFF when it may pass 4 GB. */
export const GTIFF_CREATION = ['TILED=YES', 'COMPRESS=DEFLATE', 'BIGTIFF=IF_SAFER'];
/** The same as command-line switches, for GDAL's utilities (gdalwarp, gdaldem, …). */
export const GTIFF_ARGS = ['-of', 'GTiff', ...GTIFF_CREATION.flatMap((co) => ['-co', co])];

export interface RasterInput {
  ds: Dataset;
  path: string;
  close(): void;
}

/** Opens a raster source for an algorithm; a vector layer or an unreadable file is the person's to fix. */
export async function openRasterInput(source: string, param: string): Promise<RasterInput> {
  const opened = await openSource(source);
  if (opened.kind !== 'raster') {
    opened.ds.close();
    throw new BadInputError(`'${param}' must be a raster; ${opened.path} is a vector layer`);
  }
  return { ds: opened.ds, path: opened.path, close: () => opened.ds.close() };
}

/** Band `index` of a raster, or a BadInputError that says how many bands there are. */
export function rasterBand(input: RasterInput, index: number): RasterBand {
  const count = input.ds.bands.count();
  if (index < 1 || index > count) throw new BadInputError(`${input.path} has ${count} band(s); there is no band ${index}`);
  return input.ds.bands.get(index);
}

/** GDAL's progress (0..1) mapped into [from, to] of the algorithm's own progress. */
export function gdalProgress(ctx: AlgorithmContext, message: string, from = 0, to = 1): { progress_cb: (f: number) => void } {
  return { progress_cb: (f: number) => ctx.progress(from + (to - from) * Math.min(1, Math.max(0, f)), message) };
}

/** A nodata value that fits the pixel type, for outputs whose input has none. */
export function defaultNodata(dataType: string | null): number {
  switch (dataType) {
    case gdal.GDT_Byte:
      return 0;
    case gdal.GDT_UInt16:
    case gdal.GDT_UInt32:
      return 0;
    case gdal.GDT_Int16:
      return -32768;
    default:
      return -9999;
  }
}

/** Pixels of a raster, guarded so that a mistaken resolution does not fill the disk. */
export const MAX_OUTPUT_PIXELS = 1_000_000_000;

export function checkOutputSize(width: number, height: number, hint: string): void {
  if (!Number.isFinite(width) || !Number.isFinite(height) || width * height > MAX_OUTPUT_PIXELS) {
    const size = `${Math.round(width).toLocaleString('en-US')} × ${Math.round(height).toLocaleString('en-US')}`;
    throw new BadInputError(`The output would be ${size} pixels (more than ${MAX_OUTPUT_PIXELS.toLocaleString('en-US')}); ${hint}`);
  }
}

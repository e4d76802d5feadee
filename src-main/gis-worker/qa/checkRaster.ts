import type { Dataset } from 'gdal-async';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { LayerCheck } from '../../../src-shared/worker/qaCalls.js';
import { BandReader } from '../algorithms/bandReader.js';
import { BadInputError, CancelledError, gdalReason, throwIfCancelled } from '../errors.js';

/** Pixels read at once (one double and one byte each). */
const BLOCK_PIXELS = 1 << 20;

export interface RasterLimits {
  maxPixels: number;
  maxMs: number;
  signal: AbortSignal;
}

/**
 * Counts each band's nodata pixels exactly, strip by strip — nodata value, NaN, mask or alpha
 * band, as the map and the algorithms see them (BandReader) — not from GDAL's approximate
 * statistics, which sample. Stops at the limits and says so; the counts then cover the rows read.
 */
export async function checkRaster(ds: Dataset, path: string, limits: RasterLimits): Promise<Extract<LayerCheck, { kind: 'raster' }>> {
  const { x: width, y: height } = ds.rasterSize;
  const started = Date.now();
  const rows = Math.max(1, Math.min(height, Math.floor(BLOCK_PIXELS / Math.max(1, width))));
  const bands: { band: number; counted: number; nodata: number }[] = [];
  let capped = false;
  try {
    const count = ds.bands.count();
    for (let b = 1; b <= count && !capped; b++) {
      const reader = new BandReader(ds.bands.get(b));
      let counted = 0;
      let nodata = 0;
      for (let y = 0; y < height; y += rows) {
        throwIfCancelled(limits.signal);
        if (counted >= limits.maxPixels || Date.now() - started >= limits.maxMs) {
          capped = true;
          break;
        }
        const h = Math.min(rows, height - y);
        const { valid } = await reader.read(0, y, width, h);
        for (let i = 0; i < valid.length; i++) if (valid[i] === 0) nodata++;
        counted += valid.length;
        await yieldToEvents();
      }
      bands.push({ band: b, counted, nodata });
    }
  } catch (err) {
    if (err instanceof CancelledError) throw err;
    throw new BadInputError(`Cannot read the pixels of ${path}: ${gdalReason(err, path)}`);
  }
  return { kind: 'raster', width, height, bands, capped };
}

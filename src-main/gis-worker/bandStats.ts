import type { RasterBand } from 'gdal-async';
import { BadInputError, gdalReason } from './errors.js';

export interface BandRange {
  min: number | null;
  max: number | null;
}

/**
 * Up to this many pixels a band is read in full: exact min/max cost milliseconds. Beyond,
 * GDAL's approximate statistics (from an overview or a sample of blocks) keep describing a
 * large DEM fast, at the price of missing rare extremes.
 */
const EXACT_STATS_MAX_PIXELS = 16_000_000;

/**
 * Min/max for a display stretch and a summary. A read failure here means the pixels
 * themselves are unreadable — typically a truncated or damaged file — which is the person's
 * data, not a bug.
 */
export async function bandRange(band: RasterBand, index: number, path: string): Promise<BandRange> {
  try {
    const size = await band.sizeAsync;
    const s = await band.computeStatisticsAsync(size.x * size.y > EXACT_STATS_MAX_PIXELS);
    return { min: finiteOrNull(s.min), max: finiteOrNull(s.max) };
  } catch (err) {
    const reason = gdalReason(err, path);
    // An all-nodata band is valid data with no range.
    if (/no valid pixels/i.test(reason)) return { min: null, max: null };
    throw new BadInputError(
      `Cannot read the pixels of ${path} (band ${index}); the file may be damaged or incomplete. GDAL says: ${reason}`,
    );
  }
}

export function finiteOrNull(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

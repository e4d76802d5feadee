import type { Dataset } from 'gdal-async';
import { BadInputError, gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';

export interface BandHistogram {
  /** Lower edge of the first bucket and upper edge of the last. */
  min: number;
  max: number;
  buckets: number[];
}

export interface CumulativeCut {
  band: number;
  /** The value below which `lower` % of the valid pixels lie. */
  min: number;
  /** The value below which `upper` % of the valid pixels lie. */
  max: number;
  /** The band's histogram range (GDAL's default: min/max widened by half a bucket). */
  dataMin: number;
  dataMax: number;
  validPixels: number;
}

/**
 * GDAL's default histogram of band 1 of `ds` (256 buckets over the band's range, nodata
 * excluded), as `gdalinfo -hist` computes it. `ds` is a one-band view when a band of a
 * multi-band raster is wanted (gdalinfo 3.6 has no band selection).
 */
export async function bandHistogram(ds: Dataset, label: string): Promise<BandHistogram | null> {
  let text: string;
  try {
    text = await gdal.infoAsync(ds, ['-json', '-hist', '-nomd', '-norat', '-noct']);
  } catch (err) {
    const reason = gdalReason(err);
    // An all-nodata band is valid data without a histogram.
    if (/no valid pixels/i.test(reason)) return null;
    throw new BadInputError(`Cannot compute the histogram of ${label}: ${reason}`);
  }
  const info = JSON.parse(text) as { bands?: { histogram?: { min: number; max: number; buckets: number[] } }[] };
  const h = info.bands?.[0]?.histogram;
  if (!h || !Array.isArray(h.buckets) || h.buckets.length === 0) return null;
  return { min: h.min, max: h.max, buckets: h.buckets };
}

/**
 * The values at the `lower` and `upper` percent of the cumulative histogram, interpolated
 * within the bucket where the count is crossed (the 2–98 % cut desktop GIS default to).
 * null when the band has no valid pixel.
 */
export function cutFromHistogram(h: BandHistogram, lower: number, upper: number): { min: number; max: number; total: number } | null {
  const total = h.buckets.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const width = (h.max - h.min) / h.buckets.length;
  const at = (percent: number) => {
    const target = (total * percent) / 100;
    let cum = 0;
    for (let i = 0; i < h.buckets.length; i++) {
      const n = h.buckets[i]!;
      if (n > 0 && cum + n >= target) return h.min + (i + (target - cum) / n) * width;
      cum += n;
    }
    return h.max;
  };
  return { min: at(lower), max: at(upper), total };
}

/** The cut of `band` of an open raster, through a one-band view. */
export async function cumulativeCut(ds: Dataset, band: number, lower: number, upper: number, label: string): Promise<CumulativeCut | null> {
  const view = await gdal.translateAsync('', ds, ['-of', 'VRT', '-b', String(band)]);
  try {
    return await cutOfView(view, band, lower, upper, label);
  } finally {
    view.close();
  }
}

/** The cut of band 1 of a one-band view of `band`. */
export async function cutOfView(view: Dataset, band: number, lower: number, upper: number, label: string): Promise<CumulativeCut | null> {
  const h = await bandHistogram(view, `${label} (band ${band})`);
  if (!h) return null;
  const cut = cutFromHistogram(h, lower, upper);
  if (!cut) return null;
  return { band, min: cut.min, max: cut.max, dataMin: h.min, dataMax: h.max, validPixels: cut.total };
}

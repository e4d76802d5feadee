import type { Dataset } from 'gdal-async';
import { throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { GTIFF_CREATION } from './rasterInput.js';
import type { AlgorithmContext } from './types.js';

/**
 * gdaldem on a geographic DEM, per latitude.
 *
 * gdaldem takes one horizontal scale for the whole raster; its documented convention for degrees,
 * `-s 111120`, treats a degree of longitude as 111 km everywhere, so east–west gradients come out
 * cos(latitude) too small (35 % at Luxembourg's 50° N) and slopes, aspects and shading are wrong.
 * Here the DEM is cut into strips of rows; each strip (with one row of overlap on either side, so
 * the 3×3 window sees its true neighbours) is handed to GDAL's own gdaldem as a VRT whose pixel size
 * is the strip's pixel size in metres at its central latitude, and the strip's own rows are copied
 * into the output. Strips are thin enough that the east–west scale changes by about 0.1 % within
 * one. Metres per degree are taken on the WGS 84 ellipsoid; other ellipsoids differ by ~1e-5.
 */

const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

/** Metres per degree of longitude and of latitude at `lat` (degrees) on WGS 84. */
export function metresPerDegree(lat: number): { x: number; y: number } {
  const phi = Math.max(-89.9, Math.min(89.9, lat)) * RAD;
  const w = 1 - E2 * Math.sin(phi) ** 2;
  const n = A / Math.sqrt(w);
  const m = (A * (1 - E2)) / w ** 1.5;
  return { x: RAD * n * Math.cos(phi), y: RAD * m };
}

/** Rows per strip: the x scale may change by `tolerance` across half a strip, within memory bounds. */
export function stripRows(gt: number[], width: number, height: number, tolerance = 0.001): number {
  const top = gt[3]!;
  const bottom = gt[3]! + gt[5]! * height;
  const maxLat = Math.min(89.9, Math.max(Math.abs(top), Math.abs(bottom)));
  const resRad = Math.abs(gt[5]!) * RAD;
  const byScale = Math.floor((2 * tolerance) / (Math.tan(maxLat * RAD) * resRad + 1e-12));
  const byMemory = Math.max(16, Math.floor(32_000_000 / Math.max(1, width)));
  return Math.max(16, Math.min(byScale, byMemory, height));
}

export interface DemStripJob {
  src: Dataset;
  band: number;
  mode: 'hillshade' | 'slope' | 'aspect';
  /** gdaldem switches for the mode, without -s, -b, -of or -co (the strips set those). */
  args: string[];
  /** Scale for `-s` once pixel sizes are in metres: 1, or 1/z for slope. */
  scale: number;
  output: string;
  label: string;
}

export async function demByLatitudeStrips(
  job: DemStripJob,
  ctx: AlgorithmContext,
): Promise<{ width: number; height: number; strips: number }> {
  const { x: width, y: height } = job.src.rasterSize;
  const gt = job.src.geoTransform!;
  const hillshade = job.mode === 'hillshade';
  const out = await gdal.drivers
    .get('GTiff')
    .createAsync(job.output, width, height, 1, hillshade ? gdal.GDT_Byte : gdal.GDT_Float32, GTIFF_CREATION);
  let strips = 0;
  try {
    out.geoTransform = gt;
    if (job.src.srs) out.srs = job.src.srs;
    const outBand = out.bands.get(1);
    // gdaldem's own nodata values for these products.
    outBand.noDataValue = hillshade ? 0 : -9999;
    const rows = stripRows(gt, width, height);
    for (let y0 = 0; y0 < height; y0 += rows) {
      throwIfCancelled(ctx.signal);
      const y1 = Math.min(height, y0 + rows);
      const r0 = Math.max(0, y0 - 1);
      const r1 = Math.min(height, y1 + 1);
      const lat = gt[3]! + gt[5]! * ((y0 + y1) / 2);
      const m = metresPerDegree(lat);
      const ew = gt[1]! * m.x;
      const ns = gt[5]! * m.y;
      const vrt = await gdal.translateAsync('', job.src, [
        '-of',
        'VRT',
        '-b',
        String(job.band),
        '-srcwin',
        '0',
        String(r0),
        String(width),
        String(r1 - r0),
        '-a_ullr',
        '0',
        '0',
        String(width * ew),
        String((r1 - r0) * ns),
      ]);
      let shaded: Dataset | null = null;
      try {
        shaded = await gdal.demAsync('', vrt, job.mode, [...job.args, '-s', String(job.scale), '-of', 'MEM']);
        const pixels = await shaded.bands.get(1).pixels.readAsync(0, y0 - r0, width, y1 - y0);
        await outBand.pixels.writeAsync(0, y0, width, y1 - y0, pixels);
      } finally {
        shaded?.close();
        vrt.close();
      }
      strips++;
      ctx.progress(y1 / height, `${job.label}: ${y1.toLocaleString('en-US')} of ${height.toLocaleString('en-US')} rows`);
    }
    await outBand.flushAsync();
  } finally {
    out.close();
  }
  return { width, height, strips };
}

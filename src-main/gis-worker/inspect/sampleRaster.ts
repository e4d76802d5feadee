import type { Dataset, RasterBand } from 'gdal-async';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { openSource } from '../openSource.js';
import { rasterGeoref } from '../rasterGeoref.js';
import { parseUserCrs } from './userCrs.js';

export interface SampleArgs {
  source: string;
  points: [number, number][];
  crs: string;
  bands: number[] | null;
}

export interface PointSample {
  x: number;
  y: number;
  /** [column, row] of the pixel, 0-based; null when the point lies outside the raster. */
  pixel: [number, number] | null;
  /** Band number → value; null where the pixel is nodata (or masked) or outside. */
  values: Record<string, number | null>;
}

/** Pixel ↔ map: the inverse of a (possibly rotated) geotransform. */
export function inverseGeoTransform(gt: number[]): ((x: number, y: number) => [number, number]) | null {
  const [x0, a, b, y0, d, e] = gt as [number, number, number, number, number, number];
  const det = a * e - b * d;
  if (!det) return null;
  return (x, y) => {
    const dx = x - x0;
    const dy = y - y0;
    return [(e * dx - b * dy) / det, (-d * dx + a * dy) / det];
  };
}

/**
 * Values of raster bands at points. Points are transformed from `crs` to the raster's CRS;
 * a value is null where the pixel is nodata, masked (alpha, GeoPackage transparency) or
 * where the point falls outside the raster.
 */
export async function sampleRaster(
  args: SampleArgs,
  signal: AbortSignal,
): Promise<{ crs: string; samples: PointSample[]; bands: number[] }> {
  const opened = await openSource(args.source);
  try {
    if (opened.kind !== 'raster')
      throw new BadInputError(`${opened.path} is a vector layer: use inspect_query_features for its attributes`);
    const { ds, path } = opened;
    const georef = await rasterGeoref(ds);
    const gt = await ds.geoTransformAsync;
    const toPixel = gt ? inverseGeoTransform(gt) : null;
    if (!toPixel) throw new BadInputError(`${path} has no georeferencing (no geotransform): points cannot be located on it`);
    const bandCount = await ds.bands.countAsync();
    const bands = args.bands ?? Array.from({ length: bandCount }, (_, i) => i + 1);
    const bad = bands.filter((b) => b < 1 || b > bandCount);
    if (bad.length) throw new BadInputError(`${path} has ${bandCount} band(s); there is no band ${bad.join(', ')}`);

    const from = parseUserCrs(args.crs, 'point CRS');
    const ct = georef.srs ? new gdal.CoordinateTransformation(from, georef.srs) : null;
    const readers = await Promise.all(bands.map((b) => bandReader(ds, b, path)));
    const samples: PointSample[] = [];
    for (const [x, y] of args.points) {
      throwIfCancelled(signal);
      let px: number;
      let py: number;
      try {
        const p = ct ? ct.transformPoint(x, y) : { x, y };
        [px, py] = toPixel(p.x, p.y);
      } catch {
        px = py = NaN;
      }
      const col = Math.floor(px);
      const row = Math.floor(py);
      const inside = Number.isFinite(px) && col >= 0 && row >= 0 && col < georef.width && row < georef.height;
      const values: Record<string, number | null> = {};
      for (const r of readers) values[String(r.index)] = inside ? await r.read(col, row) : null;
      samples.push({ x, y, pixel: inside ? [col, row] : null, values });
    }
    return { crs: args.crs, samples, bands };
  } finally {
    opened.ds.close();
  }
}

const GMF_ALL_VALID = 0x01;

async function bandReader(
  ds: Dataset,
  index: number,
  path: string,
): Promise<{ index: number; read(col: number, row: number): Promise<number | null> }> {
  const band = await ds.bands.getAsync(index);
  const nodata = await band.noDataValueAsync;
  const mask: RasterBand | null = band.getMaskFlags() & GMF_ALL_VALID ? null : band.getMaskBand();
  return {
    index,
    async read(col, row) {
      let v: number;
      try {
        v = (await band.pixels.readAsync(col, row, 1, 1, undefined, { data_type: gdal.GDT_Float64 }))[0] as number;
        if (mask && (await mask.pixels.getAsync(col, row)) === 0) return null;
      } catch (err) {
        throw new BadInputError(`Cannot read the pixels of ${path} (band ${index}): ${gdalReason(err, path)}`);
      }
      if (!Number.isFinite(v)) return null;
      if (typeof nodata === 'number' && v === nodata) return null;
      return v;
    },
  };
}

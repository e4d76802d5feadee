import type { Dataset, SpatialReference } from 'gdal-async';
import type { BBox } from '../../src-shared/domain/layer.js';
import { transformBBox, wgs84 } from './crs.js';

export interface RasterGeoref {
  width: number;
  height: number;
  srs: SpatialReference | null;
  /** null when the raster has no geotransform (pixel coordinates only). */
  extent: BBox | null;
  extent4326: BBox | null;
}

export async function rasterGeoref(ds: Dataset): Promise<RasterGeoref> {
  const size = await ds.rasterSizeAsync;
  const gt = await ds.geoTransformAsync;
  const srs = await ds.srsAsync;
  const extent = gt ? extentFromGeoTransform(gt, size.x, size.y) : null;
  const extent4326 = srs && extent ? transformBBox(extent, srs, wgs84()) : null;
  return { width: size.x, height: size.y, srs, extent, extent4326 };
}

/** All four corners, so rotated (sheared) geotransforms give the right box too. */
export function extentFromGeoTransform(gt: number[], width: number, height: number): BBox {
  const [x0 = 0, dx = 1, rx = 0, y0 = 0, ry = 0, dy = 1] = gt;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [px, py] of [
    [0, 0],
    [width, 0],
    [0, height],
    [width, height],
  ] as const) {
    xs.push(x0 + px * dx + py * rx);
    ys.push(y0 + px * ry + py * dy);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

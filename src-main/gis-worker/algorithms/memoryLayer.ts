import type { Dataset, Layer, SpatialReference } from 'gdal-async';
import { gdal } from '../gdal.js';
import { gdalProgress } from './rasterInput.js';
import type { AlgorithmContext } from './types.js';

/**
 * GDAL's raster-to-vector functions write one feature at a time; into a GeoPackage that is one
 * SQLite transaction per feature. They write into an in-memory layer instead, which is then copied
 * into the GeoPackage by ogr2ogr (vectorTranslate), which batches its transactions.
 */
export function memoryLayer(name: string, srs: SpatialReference | null, geometryType: number): { ds: Dataset; layer: Layer } {
  const ds = gdal.drivers.get('Memory').create('');
  const layer = ds.layers.create(name, srs, geometryType);
  return { ds, layer };
}

/** Copies layer `name` of `mem` to `path` as a GeoPackage layer of the same name; returns its feature count. */
export async function saveAsGeoPackage(
  mem: Dataset,
  name: string,
  path: string,
  ctx: AlgorithmContext,
  message: string,
  extraArgs: string[] = [],
  from = 0.8,
): Promise<number> {
  const out = await gdal.vectorTranslateAsync(
    path,
    mem,
    ['-f', 'GPKG', '-nln', name, ...extraArgs, name],
    gdalProgress(ctx, message, from, 1),
  );
  try {
    return out.layers.get(0).features.count();
  } finally {
    out.close();
  }
}

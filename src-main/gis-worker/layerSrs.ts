import type { Dataset, SpatialReference } from 'gdal-async';
import { gdal } from './gdal.js';
import { releaseVsimem, vsimemPath } from './vsimem.js';

/**
 * A vector layer's CRS, without `layer.srs`.
 *
 * gdal-async 3.12 keys the JS wrapper of a layer's SRS by the address of GDAL's object and
 * keeps the entry after the dataset is closed, until the wrapper is garbage-collected. When
 * GDAL later allocates another SRS at that address — any layer's, or a `fromEPSG` — gdal-async
 * returns the stale wrapper: nc.gpkg came back as EPSG:4326 in about one run in three.
 * Owned SRS objects (fromWKT, dataset.srs) are keyed by addresses they keep alive, so they are
 * safe. Hence: GDAL copies the layer's empty schema into an in-memory GeoPackage, and the CRS
 * is read back as WKT text from gpkg_spatial_ref_sys. It costs a few milliseconds.
 */
export async function layerSrs(ds: Dataset, layerName: string): Promise<SpatialReference | null> {
  const out = vsimemPath('gpkg');
  try {
    const copy = await gdal.vectorTranslateAsync(out, ds, ['-f', 'GPKG', '-limit', '0', '-nln', 'schema', layerName]);
    try {
      const rows = await copy.executeSQLAsync(
        'SELECT s.definition AS wkt FROM gpkg_geometry_columns g JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id',
      );
      const row = await rows.features.firstAsync();
      const wkt = row?.fields.get('wkt');
      // srs_id 0 / -1 are GeoPackage's "undefined" CRSs: the layer has none.
      if (typeof wkt !== 'string' || !wkt || wkt === 'undefined') return null;
      return gdal.SpatialReference.fromWKT(wkt);
    } finally {
      copy.close();
    }
  } catch {
    // A layer GDAL cannot copy has no CRS we can know; callers treat it as missing.
    return null;
  } finally {
    releaseVsimem(out);
  }
}

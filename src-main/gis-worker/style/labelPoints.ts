import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { layerSrs } from '../layerSrs.js';
import { releaseVsimem, vsimemPath } from '../vsimem.js';
import { withVector } from './fieldValues.js';
import { quoteIdentifier } from '../../../src-shared/sql/quote.js';

/**
 * One label point per feature, as GeoJSON in EPSG:4326 with only the asked fields: GEOS's
 * point-on-surface (SpatiaLite's ST_PointOnSurface, in the SQLite dialect), which lies inside
 * the feature and, for a multipolygon, in its widest part — the mainland, not an island.
 * MapLibre would otherwise label every part of a multipolygon.
 */
export async function labelPoints(source: string, fields: readonly string[], signal?: AbortSignal): Promise<string> {
  return withVector(source, fields, async (opened) => {
    const { ds, layer, path } = opened;
    // The SQLite dialect names the geometry column as the driver does, or GEOMETRY for non-SQL formats.
    const geom = quoteIdentifier(layer.geomColumn || 'GEOMETRY');
    const columns = fields.map(quoteIdentifier).join(', ');
    const sql = `SELECT ST_PointOnSurface(${geom}) AS geometry${columns ? `, ${columns}` : ''} FROM ${quoteIdentifier(layer.name)} WHERE ${geom} IS NOT NULL`;
    const args = ['-f', 'GeoJSON', '-lco', 'RFC7946=YES', '-dialect', 'SQLite', '-sql', sql, '-nln', 'labels'];
    // Without a CRS the coordinates are taken as they are (as the layer's own GeoJSON does).
    if (await layerSrs(ds, layer.name)) args.push('-t_srs', 'EPSG:4326');
    const out = vsimemPath('geojson');
    try {
      throwIfCancelled(signal);
      try {
        const dst = await gdal.vectorTranslateAsync(out, ds, args);
        dst.close();
      } catch (err) {
        throw new BadInputError(`Cannot place labels for ${path}: ${gdalReason(err, path)}`);
      }
      const bytes = releaseVsimem(out);
      if (!bytes) throw new Error(`GDAL wrote no label points for ${path}`);
      return bytes.toString('utf8');
    } finally {
      releaseVsimem(out);
    }
  });
}

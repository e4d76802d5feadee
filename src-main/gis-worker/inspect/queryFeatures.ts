import type { Geometry, Layer, SpatialReference } from 'gdal-async';
import type { BBox } from '../../../src-shared/domain/layer.js';
import { checkWhere, ExpressionError } from '../../../src-shared/processing/sqlExpression.js';
import { transformBBox, wgs84 } from '../crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { openSource } from '../openSource.js';
import { featureProperties, readCapped, roundCoordinates, type TruncatedBy } from './fieldValues.js';
import { sourceSrs } from './layerDetails.js';
import { parseUserCrs } from './userCrs.js';

export interface QueryArgs {
  source: string;
  where: string | null;
  bbox: BBox | null;
  geometry: unknown;
  filter_crs: string;
  fields: string[] | null;
  limit: number;
  include_geometry: boolean;
  max_chars: number;
}

export interface QueryResult {
  type: 'FeatureCollection';
  features: unknown[];
  total_count: number;
  returned: number;
  truncated: boolean;
  /** Why the list stops early: the limit or the size cap. */
  truncated_by: TruncatedBy;
  crs: string | null;
}

/**
 * Features matching an attribute filter and/or a spatial filter, as GeoJSON in EPSG:4326,
 * with the total number of matches. GDAL evaluates both filters (OGR SQL WHERE syntax; the
 * spatial test is a true intersection, not only the bounding boxes).
 */
export async function queryFeatures(args: QueryArgs, signal: AbortSignal): Promise<QueryResult> {
  const opened = await openSource(args.source);
  try {
    if (opened.kind !== 'vector')
      throw new BadInputError(`${opened.path} is a raster: query it with inspect_sample_raster or inspect_raster_stats`);
    const { layer } = opened;
    const names = fieldNames(layer);
    const fields = args.fields ? checkFields(args.fields, names) : null;
    const srs = await sourceSrs(opened);

    if (args.where) applyWhere(layer, args.where, names);
    const table = layer.geomType === gdal.wkbNone;
    if ((args.bbox || args.geometry) && table) {
      throw new BadInputError(`'${layer.name}' is a table without geometry: only an attribute filter (where) applies`);
    }
    if (args.bbox) layer.setSpatialFilter(...spatialBox(args.bbox, args.filter_crs, srs));
    else if (args.geometry) layer.setSpatialFilter(filterGeometry(args.geometry, args.filter_crs, srs));

    const total = await countMatches(layer, args.where, names);
    throwIfCancelled(signal);
    const toWgs84 = srs ? new gdal.CoordinateTransformation(srs, wgs84()) : null;
    const { items: features, truncatedBy } = await readCapped(
      layer.features,
      (f): unknown => {
        let geometry: unknown = null;
        if (args.include_geometry && !table) {
          const g = f.getGeometry();
          if (g) {
            if (toWgs84) g.transform(toWgs84);
            geometry = roundCoordinates(JSON.parse(g.toJSON()), 6);
          }
        }
        return { type: 'Feature', id: f.fid, properties: featureProperties(f, fields), geometry };
      },
      { limit: args.limit, maxChars: args.max_chars },
      signal,
    );
    return {
      type: 'FeatureCollection',
      features,
      total_count: total,
      returned: features.length,
      truncated: features.length < total,
      truncated_by: features.length < total ? (truncatedBy ?? 'limit') : null,
      crs: table ? null : srs ? 'EPSG:4326' : 'unknown (the layer has no CRS; coordinates as stored)',
    };
  } finally {
    opened.ds.close();
  }
}

export function fieldNames(layer: Layer): string[] {
  const names: string[] = [];
  layer.fields.forEach((f) => {
    names.push(f.name);
  });
  return names;
}

/** Some drivers (GeoPackage) parse the filter only when reading: a failure shows up here. */
async function countMatches(layer: Layer, where: string | null, names: string[]): Promise<number> {
  let total: number;
  try {
    total = await layer.features.countAsync(true);
  } catch (err) {
    throw whereError(where ?? '', gdalReason(err), names);
  }
  if (total < 0) throw whereError(where ?? '', 'GDAL could not evaluate it', names);
  return total;
}

function whereError(where: string, reason: string, names: string[]): BadInputError {
  return new BadInputError(
    `Invalid attribute filter "${where}": ${reason}. Use OGR SQL WHERE syntax (e.g. "pop > 1000000 AND continent = 'Africa'"; ` +
      `quote text with ' and field names with spaces with "). Fields: ${names.join(', ')}`,
  );
}

function checkFields(requested: string[], names: string[]): string[] {
  const missing = requested.filter((n) => !names.includes(n));
  if (missing.length) {
    throw new BadInputError(`No field ${missing.map((m) => `'${m}'`).join(', ')} in this layer; its fields are: ${names.join(', ')}`);
  }
  return requested;
}

/** Names OGR SQL understands besides the fields; for SQLite-based sources also the FID and geometry columns. */
const OGR_SPECIAL_FIELDS = ['FID', 'OGR_GEOMETRY', 'OGR_GEOM_WKT', 'OGR_GEOM_AREA', 'OGR_STYLE'];

/**
 * The filter is first checked like a processing expression (src-shared/processing/sqlExpression.ts):
 * GeoPackage and SQLite sources hand it to SQLite, where GDAL and SpatiaLite register functions
 * that open files and reach the network, so only allowed functions and this layer's fields may
 * appear — before GDAL sees it. GDAL then parses the rewritten filter (fields quoted); a typo
 * comes back with the fields to use.
 */
function applyWhere(layer: Layer, where: string, names: string[]): void {
  if (where.includes(';')) throw new BadInputError(`The filter must be one condition, without ';': ${where}`);
  const special = [...OGR_SPECIAL_FIELDS, layer.fidColumn, layer.geomColumn].filter((n) => n && !names.includes(n));
  let checked: string;
  try {
    checked = checkWhere(where, names, special).sql;
  } catch (err) {
    if (err instanceof ExpressionError) throw whereError(where, err.message, names);
    throw err;
  }
  try {
    layer.setAttributeFilter(checked);
  } catch (err) {
    throw whereError(where, gdalReason(err), names);
  }
}

function spatialBox(bbox: BBox, crs: string, layerCrs: SpatialReference | null): [number, number, number, number] {
  const [w, s, e, n] = bbox;
  if (!(w <= e && s <= n))
    throw new BadInputError(`The bbox must be [xmin, ymin, xmax, ymax] with xmin ≤ xmax and ymin ≤ ymax; got [${bbox.join(', ')}]`);
  const from = parseUserCrs(crs, 'filter CRS');
  if (!layerCrs) return [w, s, e, n];
  const box = transformBBox(bbox, from, layerCrs, 20);
  if (!box) throw new BadInputError(`The bbox [${bbox.join(', ')}] cannot be expressed in the layer's CRS`);
  return box;
}

function filterGeometry(input: unknown, crs: string, layerCrs: SpatialReference | null): Geometry {
  let geom: Geometry;
  try {
    geom = typeof input === 'string' ? gdal.Geometry.fromWKT(input) : gdal.Geometry.fromGeoJson(input as object);
  } catch (err) {
    throw new BadInputError(`The filter geometry is neither valid WKT nor a GeoJSON geometry: ${gdalReason(err)}`);
  }
  if (layerCrs) {
    const from = parseUserCrs(crs, 'filter CRS');
    geom.transform(new gdal.CoordinateTransformation(from, layerCrs));
  }
  return geom;
}

import type { SpatialReference } from 'gdal-async';
import { gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';
import { flatGeometryType } from '../geometryType.js';
import { q } from './fieldNames.js';
import type { FidRange } from './sqlOutput.js';
import type { VectorInput } from './vectorInput.js';
import { type Dimension, dimensionOfType, type FieldSpec, sourceSrs } from './workspace.js';

/**
 * A source layer read where it lies, with no staging copy. GDAL runs SQLite-dialect SQL on any
 * vector dataset:
 * - natively on a GeoPackage (its own SQLite file; SpatiaLite's ST_* work on its geometries,
 *   and the fid is the table's integer primary key, so a fid range is an index lookup);
 * - through virtual tables on the other drivers (Shapefile, FlatGeobuf, GeoJSON, CSV, …),
 *   which GDAL reads front to back: a fid range there reads the whole file again, so these
 *   are processed in one pass.
 * Staged in the workspace instead: the SQLite driver (its own SQL sees raw WKB, not SpatiaLite
 * geometries), fields whose names would collide with the output's `fid`/`geom` columns, and
 * list fields (GeoJSON arrays), which a staging copy turns into JSON text.
 */
export interface SourceLayer {
  input: VectorInput;
  access: 'native' | 'virtual';
  /** The layer as SQL names it, quoted. */
  table: string;
  /** Its geometry column, quoted. */
  geom: string;
  /** Its fid column, quoted: null where there is no index to take ranges of. */
  fid: string | null;
  fields: FieldSpec[];
  srs: SpatialReference | null;
  /** A CSV without CRS whose coordinates look like degrees was taken as WGS 84. */
  assumedWgs84: boolean;
  /** The header's OGR type without Z/M. */
  geometryType: number;
  hasGeometry: boolean;
}

/** The source as SQL can read it in place, or null when it has to be staged. */
export function sourceLayer(input: VectorInput): SourceLayer | null {
  const driver = input.ds.driver.description;
  if (driver === 'SQLite') return null;
  const { layer } = input;
  const native = driver === 'GPKG';
  const geomName = layer.geomColumn || (native ? '' : 'GEOMETRY');
  const hasGeometry = layer.geomType !== gdal.wkbNone;
  if (hasGeometry && !geomName) return null;
  const fields = layer.fields.map((f) => ({ name: f.name, type: f.type, width: f.width, precision: f.precision }));
  const reserved = new Set(['fid', 'geom', geomName.toLowerCase(), layer.fidColumn.toLowerCase()]);
  if (fields.some((f) => reserved.has(f.name.toLowerCase()))) return null;
  // Virtual tables give list fields (GeoJSON arrays) as OGR's "(3:1,2,3)" text; a GeoPackage copy keeps them as JSON.
  if (fields.some((f) => /list$/i.test(f.type))) return null;
  const own = sourceSrs(input);
  return {
    input,
    access: native ? 'native' : 'virtual',
    table: q(layer.name),
    geom: q(geomName),
    fid: native && layer.fidColumn ? q(layer.fidColumn) : null,
    fields,
    srs: own.srs,
    assumedWgs84: own.assumed,
    geometryType: flatGeometryType(layer.geomType),
    hasGeometry,
  };
}

/** A GeoPackage on the file system, which another SQLite connection can ATTACH. */
export function attachable(src: SourceLayer): boolean {
  return src.access === 'native' && src.fid !== null && !src.input.path.startsWith('/vsi');
}

/**
 * One row of a query on the source. A GeoPackage is queried on a handle of its own, closed at
 * once: a result set left to the garbage collector would make it wait for the long GDAL calls
 * that then run on the input's handle.
 */
export async function sourceRow(src: SourceLayer, sql: string): Promise<Record<string, unknown>> {
  const own = src.access === 'native' ? await gdal.openAsync(src.input.path, 'r') : null;
  try {
    let layer;
    try {
      layer = await (own ?? src.input.ds).executeSQLAsync(sql, undefined, 'SQLite');
    } catch (err) {
      throw new Error(`SQL failed: ${gdalReason(err)}\n${sql}`);
    }
    const f = layer.features.first();
    return f ? (f.fields.toObject() as Record<string, unknown>) : {};
  } finally {
    own?.close();
  }
}

/** Count and fid span (an index lookup on a GeoPackage; a count of the layer elsewhere). */
export async function fidRange(src: SourceLayer): Promise<FidRange> {
  if (src.fid) {
    const r = await sourceRow(src, `SELECT COUNT(*) AS n, MIN(${src.fid}) AS lo, MAX(${src.fid}) AS hi FROM ${src.table}`);
    return { count: Number(r.n ?? 0), minFid: Number(r.lo ?? 1), maxFid: Number(r.hi ?? 0) };
  }
  return { count: src.input.layer.features.count(true), minFid: 1, maxFid: 0 };
}

/** 0 points, 1 lines, 2 polygons: from the header, or for "Unknown"/collections from the features. */
export async function sourceDimension(src: SourceLayer): Promise<Dimension> {
  if (!src.hasGeometry) return null;
  const known = dimensionOfType(src.geometryType);
  if (known !== undefined) return known;
  const r = await sourceRow(src, `SELECT MAX(ST_Dimension(${src.geom})) AS d FROM ${src.table} WHERE ${src.geom} IS NOT NULL`);
  // As on the workspace: an empty layer of unknown type is taken as polygons (the output stays empty).
  const d = r.d === null || r.d === undefined ? 2 : Number(r.d);
  return d === 0 || d === 1 ? d : 2;
}

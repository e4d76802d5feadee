import type pg from 'pg';
import { type Dimension, type InputInfo, type Statement, selectList } from './plan.js';
import { attributeFields, readColumns } from './pgFields.js';
import { ident, qualified } from './pgIdent.js';
import { type PgInput, PushdownError } from './types.js';

const TYPMOD: Record<string, string> = {
  POINT: 'Point',
  MULTIPOINT: 'MultiPoint',
  LINESTRING: 'LineString',
  MULTILINESTRING: 'MultiLineString',
  POLYGON: 'Polygon',
  MULTIPOLYGON: 'MultiPolygon',
};

const DIMENSION: Record<string, Dimension> = {
  Point: 0,
  MultiPoint: 0,
  LineString: 1,
  MultiLineString: 1,
  Polygon: 2,
  MultiPolygon: 2,
};

/**
 * Reads what the SQL builders need about one input, checking the PgInput against the catalogue
 * (the caller may have built it by hand): the columns named must exist.
 */
export async function loadInputInfo(client: pg.Client, input: PgInput): Promise<InputInfo> {
  const label = `${input.schema}.${input.table}`;
  const columns = await readColumns(client, input);
  if (columns.length === 0) throw new PushdownError('invalid_params', `There is no table or view ${label}`);
  const geomCol = columns.find((c) => c.name === input.geomColumn);
  if (!geomCol || !/^geometry\b/.test(geomCol.sqlType))
    throw new PushdownError('invalid_params', `${label} has no geometry column '${input.geomColumn}'`);
  if (input.keyColumn !== null && !columns.some((c) => c.name === input.keyColumn))
    throw new PushdownError('invalid_params', `${label} has no column '${input.keyColumn}'`);
  const from = qualified(input);
  const geom = ident(input.geomColumn);
  const declared = await client.query<{ type: string }>(
    'SELECT type FROM geometry_columns WHERE f_table_schema = $1 AND f_table_name = $2 AND f_geometry_column = $3',
    [input.schema, input.table, input.geomColumn],
  );
  const typmod = TYPMOD[(declared.rows[0]?.type ?? 'GEOMETRY').toUpperCase()] ?? 'Geometry';
  let dimension: Dimension | null = DIMENSION[typmod] ?? null;
  if (dimension === null) {
    // As the worker: a mixed column's dimension is its highest; an empty one reads as polygons.
    const r = await client.query<{ d: number | null; n: string }>(
      `SELECT MAX(ST_Dimension(${geom})) AS d, COUNT(${geom}) AS n FROM ${from}`,
    );
    const d = r.rows[0]?.d;
    dimension = d === null || d === undefined ? 2 : d === 0 || d === 1 ? d : 2;
  }
  const srs = await client.query<{ geographic: boolean }>(
    `SELECT (srtext ~* '^\\s*GEOG' OR proj4text ~ '\\+proj=(longlat|latlong)') AS geographic FROM spatial_ref_sys WHERE srid = $1`,
    [input.srid],
  );
  return {
    ...input,
    label,
    from,
    geom,
    key: input.keyColumn === null ? null : ident(input.keyColumn),
    fields: attributeFields(columns, input),
    dimension,
    typmod,
    geographic: srs.rows[0]?.geographic ?? false,
  };
}

/**
 * The second layer of a two-layer algorithm in the first one's CRS, as the worker stages it:
 * the same table when the SRIDs agree (its GiST index then serves the joins); otherwise a
 * temporary copy transformed once, indexed and analysed, dropped at commit.
 */
export function inCrsOf(b: InputInfo, srid: number, name: string): { info: InputInfo; prepare: Statement[] } {
  if (b.srid === srid || b.srid === 0 || srid === 0) return { info: b, prepare: [] };
  const temp = `pg_temp.${ident(name)}`;
  const cols = [...(b.key ? [`t.${b.key}`] : []), ...selectList('t', b.fields), `ST_Transform(t.${b.geom}, ${Number(srid)}) AS ${b.geom}`];
  return {
    info: { ...b, from: temp, srid },
    prepare: [
      {
        sql: `CREATE TEMPORARY TABLE ${ident(name)} ON COMMIT DROP AS SELECT ${cols.join(', ')} FROM ${b.from} AS t`,
      },
      { sql: `CREATE INDEX ON ${temp} USING gist (${b.geom})` },
      { sql: `ANALYZE ${temp}` },
    ],
  };
}

/** A note like the worker's when the second layer was reprojected. */
export function reprojectedNote(a: InputInfo, b: InputInfo): string[] {
  return a.srid !== b.srid && a.srid !== 0 && b.srid !== 0
    ? [`${b.label} was reprojected to the CRS of ${a.label} (EPSG:${a.srid}) for this operation`]
    : [];
}

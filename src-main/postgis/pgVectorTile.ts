import type pg from 'pg';
import { THIN_GRID, TILE_FEATURE_CAP, VECTOR_TILE_LAYER } from '../../src-shared/style/vectorTiles.js';
import { quoteIdentifier as quoteIdent, quoteQualified } from '../../src-shared/sql/quote.js';

/** What a server tile needs to know of a table (read once from the catalogue, `describePgInput`). */
export interface PgTileTable {
  schema: string;
  table: string;
  geomColumn: string;
  /** 0: unknown (nothing can be drawn). */
  srid: number;
  /** An integer primary key: the tile's feature ids, the same ids GDAL reads as FIDs. */
  keyColumn: string | null;
  /**
   * A query kept as a layer (pgQueryTable.ts): the FROM item to read instead of schema.table.
   * It is never sampled (TABLESAMPLE takes tables only): a large one is thinned on the grid.
   */
  from?: string;
  /** Column names of the table (a style's field that is not one of them is left out). */
  columns: readonly string[];
  /** geometry_columns' type (POINT, MULTIPOLYGON, GEOMETRY…): points are thinned by their position alone. */
  geometryType?: string;
}

export interface PgTileResult {
  pbf: Uint8Array;
  kept: number;
  /** Features of the tile left out by thinning (the planner's estimate when the tile was sampled). */
  dropped: number;
  /** How the features were picked: all, one per grid cell, or a row sample thinned on the grid. */
  method: 'all' | 'grid' | 'sample';
}

const EXTENT = 4096;
/** The tile's feature id column (the table's key under a name no table column is likely to have). */
const ID_COLUMN = 'mapwright_fid';
const BUFFER = 64;
/** Past this many estimated features a tile reads a row sample rather than every row under it. */
const SAMPLE_ABOVE = TILE_FEATURE_CAP * 8;

/**
 * One Mapbox Vector Tile made by PostGIS (issue 16): `ST_AsMVTGeom` clips and quantises each
 * geometry to the tile, `ST_AsMVT` encodes the tile, and the table's spatial index finds the
 * rows (`&&` with the tile's envelope in the table's own CRS). Nothing is copied to this
 * machine. Past TILE_FEATURE_CAP a tile keeps one feature per cell of a THIN_GRID grid (the
 * largest), as the worker's tiles do; a zoomed-out tile over most of a very large table reads a
 * Bernoulli row sample first, sized from the planner's estimate, so its cost does not grow
 * with the table.
 */
export async function pgVectorTile(
  client: pg.Client | pg.PoolClient,
  t: PgTileTable,
  fields: readonly string[],
  z: number,
  x: number,
  y: number,
): Promise<PgTileResult> {
  if (t.srid <= 0) return { pbf: new Uint8Array(0), kept: 0, dropped: 0, method: 'all' };
  const geom = quoteIdent(t.geomColumn);
  const srid = t.srid;
  const table = t.from ?? quoteQualified(t);
  // The key travels as the feature id under a name of its own, so a style may still read it as a field.
  const kept = fields.filter((f) => t.columns.includes(f) && f !== t.geomColumn && f !== ID_COLUMN);
  const key = t.keyColumn ? `${quoteIdent(t.keyColumn)} AS ${ID_COLUMN}, ` : '';
  const attrs = kept.map((f) => `${quoteIdent(f)}`).join(', ');
  // The tile's envelope in the table's CRS, clamped to what the CRS can express (degrees near the poles).
  const box = `ST_Transform(ST_TileEnvelope($1, $2, $3, margin => ${BUFFER / EXTENT}), ${srid})`;
  const where = `${geom} && ${box}`;

  // The estimate and the tile are read in one READ ONLY transaction: a query layer's text came
  // from the person or the model. PostgreSQL's JIT compiles a query whose estimated cost is high
  // (every tile of a large table): 100–300 ms of compiling for a query that runs in less. Off here.
  await client.query('BEGIN READ ONLY');
  try {
    await client.query('SET LOCAL jit = off');
    return await readTile();
  } finally {
    await client.query('ROLLBACK');
  }

  async function readTile(): Promise<PgTileResult> {
    // A query's rows have no statistics the planner trusts (a filter's guess can be 1 % of the truth):
    // they are counted instead, up to one past the cap, which is all the choice needs.
    const estimate =
      t.from === undefined
        ? await plannedRows(client, `SELECT 1 FROM ${table} WHERE ${where}`, [z, x, y])
        : await countedRows(client, `SELECT 1 FROM ${table} WHERE ${where} LIMIT ${TILE_FEATURE_CAP + 1}`, [z, x, y]);
    const many = estimate > SAMPLE_ABOVE && t.from === undefined ? 'sample' : 'grid';
    const method: PgTileResult['method'] = estimate > TILE_FEATURE_CAP ? many : 'all';
    const sample = method === 'sample' ? ` TABLESAMPLE SYSTEM (${samplePercent(estimate)}) REPEATABLE (1)` : '';
    const cell = EXTENT / THIN_GRID;
    // A point's cell is where it is; a line's or polygon's, the centre of its box, the largest kept.
    const points = t.geometryType?.toUpperCase() === 'POINT';
    const [cx, cy, size] = points
      ? ['ST_X(mvt_geom)', 'ST_Y(mvt_geom)', '0']
      : [
          'ST_X(ST_Centroid(ST_Envelope(mvt_geom)))',
          'ST_Y(ST_Centroid(ST_Envelope(mvt_geom)))',
          'ST_Area(ST_Envelope(mvt_geom)) + ST_Length(mvt_geom)',
        ];
    const rows =
      `SELECT ${key}${attrs ? `${attrs}, ` : ''}ST_AsMVTGeom(ST_Transform(${geom}, 3857), ST_TileEnvelope($1, $2, $3), ${EXTENT}, ${BUFFER}, true) AS mvt_geom ` +
      `FROM ${table}${sample} WHERE ${where}`;
    // One feature per grid cell (by the centre of its tile box), the largest first, when thinning.
    const picked =
      method === 'all'
        ? `SELECT * FROM (${rows}) r WHERE mvt_geom IS NOT NULL`
        : `SELECT DISTINCT ON (gx, gy) * FROM (SELECT r.*, floor(${cx} / ${cell}) AS gx, floor(${cy} / ${cell}) AS gy, ${size} AS size ` +
          `FROM (${rows}) r WHERE mvt_geom IS NOT NULL) c ORDER BY gx, gy, size DESC`;
    const columns = [...(t.keyColumn ? [ID_COLUMN] : []), ...kept, 'mvt_geom'].map(quoteIdent).join(', ');
    const sql =
      `WITH picked AS (${picked}) ` +
      `SELECT ST_AsMVT(tile, '${VECTOR_TILE_LAYER}', ${EXTENT}, 'mvt_geom'${t.keyColumn ? `, '${ID_COLUMN}'` : ''}) AS pbf, ` +
      `(SELECT count(*) FROM picked)::int AS kept FROM (SELECT ${columns} FROM picked) tile`;
    const row = (await client.query<{ pbf: Buffer | null; kept: number }>(sql, [z, x, y])).rows[0];
    const pbf = row?.pbf ? new Uint8Array(row.pbf) : new Uint8Array(0);
    const count = row?.kept ?? 0;
    return { pbf, kept: count, dropped: Math.max(0, Math.round(estimate) - count), method };
  }
}

/** The planner's estimate of a query's rows (from the table's statistics; nothing is read). */
async function plannedRows(client: pg.Client | pg.PoolClient, sql: string, params: unknown[]): Promise<number> {
  const result = await client.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return result.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
}

/** Rows of a query, counted (the caller bounds it with a LIMIT). */
async function countedRows(client: pg.Client | pg.PoolClient, sql: string, params: unknown[]): Promise<number> {
  const result = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) AS counted`, params);
  return result.rows[0]?.n ?? 0;
}

/** Enough sampled rows to fill the grid several times over (cells are uneven), never below 0.01 %. */
function samplePercent(estimate: number): string {
  return Math.min(100, Math.max(0.01, ((TILE_FEATURE_CAP * 6) / estimate) * 100)).toFixed(4);
}

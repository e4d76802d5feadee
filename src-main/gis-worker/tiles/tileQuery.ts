import type { BBox } from '../../../src-shared/domain/layer.js';
import { quoteIdentifier as q } from '../../../src-shared/sql/quote.js';
import { THIN_GRID, TILE_FEATURE_CAP } from '../../../src-shared/style/vectorTiles.js';

export { THIN_GRID, TILE_FEATURE_CAP };

/**
 * The SQL that picks a vector tile's features from a GeoPackage R-tree. Pure, so the thinning
 * rule can be tested without GDAL.
 *
 * A tile holds at most `TILE_FEATURE_CAP` features. Where more fall in it, the tile is cut into
 * a `THIN_GRID` × `THIN_GRID` grid and each cell keeps one feature — the one with the largest
 * bounding box (SQLite returns the row of max() for the bare columns of an aggregate), so big
 * polygons survive and sub-pixel crowds become one representative; COUNT_COLUMN counts the features
 * the kept one stands for, so the tile can say how many it dropped.
 */
/** Part of a tile added on each side, so symbols at its edges are not cut (as geojson-vt's buffer). */
export const TILE_BUFFER = 64 / 4096;

/** The column of a tile query that says how many features a kept one stands for (named so no real field collides). */
export const COUNT_COLUMN = '__mapwright_n';

export interface TileTable {
  table: string;
  fidColumn: string;
  geomColumn: string;
  rtree: string;
}

function bboxWhere(b: BBox, alias = ''): string {
  // R-tree bounds are floats rounded outwards; comparing with the tile box keeps every hit.
  return `${alias}maxx >= ${b[0]} AND ${alias}minx <= ${b[2]} AND ${alias}maxy >= ${b[1]} AND ${alias}miny <= ${b[3]}`;
}

/** How many fall in the box, counting at most cap + 1 (SQLite stops reading there). */
export function overCapSql(t: TileTable, box: BBox): string {
  return `SELECT count(*) AS n FROM (SELECT 1 FROM ${q(t.rtree)} WHERE ${bboxWhere(box)} LIMIT ${TILE_FEATURE_CAP + 1})`;
}

/** Every feature in the box, with the fields the style needs. */
export function allFeaturesSql(t: TileTable, box: BBox, fields: readonly string[]): string {
  return `SELECT ${columns(t, fields)}, 1 AS ${COUNT_COLUMN} FROM ${q(t.table)} WHERE ${q(t.fidColumn)} IN (SELECT id FROM ${q(t.rtree)} WHERE ${bboxWhere(box)})`;
}

/** One feature per grid cell (by the centre of its bounding box), with COUNT_COLUMN the features of its cell. */
export function thinnedFeaturesSql(t: TileTable, box: BBox, fields: readonly string[]): string {
  const cw = (box[2] - box[0]) / THIN_GRID;
  const ch = (box[3] - box[1]) / THIN_GRID;
  const cell = `GROUP BY CAST(((r.minx + r.maxx) / 2 - ${box[0]}) / ${cw} AS INTEGER), CAST(((r.miny + r.maxy) / 2 - ${box[1]}) / ${ch} AS INTEGER)`;
  const size = 'max((r.maxx - r.minx) * (r.maxy - r.miny)) AS size';
  const cells = `SELECT r.id AS id, ${size}, count(*) AS cnt FROM ${q(t.rtree)} r WHERE ${bboxWhere(box, 'r.')} ${cell}`;
  // CROSS JOIN keeps SQLite's loop order: the few kept cells outside, the table looked up by id.
  return `SELECT ${columns(t, fields, 'f')}, c.cnt AS ${COUNT_COLUMN} FROM (${cells}) c CROSS JOIN ${q(t.table)} f ON f.${q(t.fidColumn)} = c.id`;
}

/**
 * A zoomed-out tile lies over most of the table, and thinning it on a grid would read every
 * feature under it (about a second per million). There a regular sample by feature id is taken
 * instead — every `stride`-th id, looked up through the primary key and the R-tree, so the cost
 * is the sample's size, not the table's. The stride depends on the zoom only (see `strideFor`),
 * so neighbouring tiles show the same density; COUNT_COLUMN is the stride (each kept feature stands for
 * about that many).
 */
export function sampledFeaturesSql(
  t: TileTable,
  box: BBox,
  fields: readonly string[],
  ids: { min: number; max: number },
  stride: number,
): string {
  const series = `WITH RECURSIVE s(i) AS (SELECT ${ids.min} UNION ALL SELECT i + ${stride} FROM s WHERE i + ${stride} <= ${ids.max})`;
  return (
    `${series} SELECT ${columns(t, fields, 'f')}, ${stride} AS ${COUNT_COLUMN} FROM s CROSS JOIN ${q(t.rtree)} r ON r.id = s.i ` +
    `CROSS JOIN ${q(t.table)} f ON f.${q(t.fidColumn)} = s.i WHERE ${bboxWhere(box, 'r.')}`
  );
}

export interface TablePlanStats {
  count: number;
  /** Area of the table's extent (CRS units²), > 0. */
  extentArea: number;
}

/**
 * The stride for a tile of this area, or null to read the table under the tile (thinning it on
 * the grid when over the cap). Sampling wins when its lookups (cap / f) cost less than reading
 * the tile's share of the table (count · f), f being the tile's area over the extent's.
 */
export function strideFor(stats: TablePlanStats, tileArea: number): number | null {
  const f = tileArea / stats.extentArea;
  if (!(f > 0) || stats.count <= TILE_FEATURE_CAP) return null;
  if (f * f <= TILE_FEATURE_CAP / stats.count) return null;
  const stride = Math.ceil((stats.count * Math.min(1, f)) / TILE_FEATURE_CAP);
  return stride > 1 ? stride : null;
}

function columns(t: TileTable, fields: readonly string[], alias?: string): string {
  const p = alias ? `${alias}.` : '';
  return [t.fidColumn, ...fields, t.geomColumn].map((c) => p + q(c)).join(', ');
}

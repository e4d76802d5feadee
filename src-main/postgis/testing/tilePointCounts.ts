import type pg from 'pg';

/**
 * How many points of `points_1m` (those passing `filter`, SQL over its columns) a server tile
 * z/x/y must hold, as a range. `ST_AsMVTGeom` snaps coordinates to the 4096 grid before it clips
 * to the 64-unit buffer, so a point up to half a unit outside the buffer can be kept: every
 * point inside the buffer must be in the tile (`fewest`), none beyond one unit outside (`most`).
 * Counting exactly at the buffer's edge made the tests fail about once in 30 runs (random points).
 */
export async function tilePointCounts(
  client: Pick<pg.Client, 'query'>,
  filter: string,
  [z, x, y]: readonly [number, number, number],
): Promise<{ fewest: number; most: number }> {
  const { rows } = await client.query<{ fewest: number; most: number }>(
    `SELECT count(*) FILTER (WHERE ST_Intersects(g, ST_TileEnvelope($1, $2, $3, margin => 64.0 / 4096)))::int AS fewest,
            count(*)::int AS most
       FROM (SELECT ST_Transform(geom, 3857) AS g FROM points_1m WHERE ${filter}) p
      WHERE ST_Intersects(g, ST_TileEnvelope($1, $2, $3, margin => 65.0 / 4096))`,
    [z, x, y],
  );
  return rows[0]!;
}

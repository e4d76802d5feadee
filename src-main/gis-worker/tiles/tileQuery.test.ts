import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allFeaturesSql, sampledFeaturesSql, strideFor, thinnedFeaturesSql, TILE_FEATURE_CAP, type TileTable } from './tileQuery.js';

const t: TileTable = { table: 'pts', fidColumn: 'fid', geomColumn: 'geom', rtree: 'rtree_pts_geom' };
const box: [number, number, number, number] = [0, 0, 10, 10];

describe('tile query: which features a vector tile reads', () => {
  it('reads the table under a tile when that is cheaper than sampling', () => {
    // A tile over a small share of a large table: thinning its part costs less than a sample.
    assert.equal(strideFor({ count: 1_000_000, extentArea: 100 }, 0.5), null);
    // A table under the cap never samples.
    assert.equal(strideFor({ count: TILE_FEATURE_CAP, extentArea: 100 }, 100), null);
  });

  it('samples every n-th id on zoomed-out tiles, with n set by the tile size alone', () => {
    const whole = strideFor({ count: 1_000_000, extentArea: 100 }, 100)!;
    assert.equal(whole, Math.ceil(1_000_000 / TILE_FEATURE_CAP));
    // Two tiles of the same zoom get the same stride, wherever they lie (no density seams).
    assert.equal(strideFor({ count: 1_000_000, extentArea: 100 }, 25), strideFor({ count: 1_000_000, extentArea: 100 }, 25));
    // A tile four times the extent samples no more densely than one covering it all.
    assert.equal(strideFor({ count: 1_000_000, extentArea: 100 }, 400), whole);
  });

  it('quotes every name it writes, so a hostile table or field name stays a name', () => {
    const evil: TileTable = { table: 'x"; DROP TABLE y; --', fidColumn: 'fid', geomColumn: 'geom', rtree: 'rtree_x"_geom' };
    const sql = allFeaturesSql(evil, box, ['a"b']);
    assert.ok(sql.includes('"x""; DROP TABLE y; --"'));
    assert.ok(sql.includes('"a""b"'));
    assert.ok(sql.includes('"rtree_x""_geom"'));
  });

  it('thins on a grid keeping the largest feature per cell, and counts what each stands for', () => {
    const sql = thinnedFeaturesSql(t, box, ['v']);
    assert.match(sql, /max\(\(r\.maxx - r\.minx\) \* \(r\.maxy - r\.miny\)\)/);
    assert.match(sql, /count\(\*\) AS cnt/);
    assert.match(sql, /GROUP BY CAST/);
    assert.match(sql, /c\.cnt AS __mapwright_n/);
  });

  it('samples by id through the primary key and the R-tree', () => {
    const sql = sampledFeaturesSql(t, box, [], { min: 1, max: 1000 }, 7);
    assert.match(sql, /^WITH RECURSIVE s\(i\) AS \(SELECT 1 UNION ALL SELECT i \+ 7 FROM s WHERE i \+ 7 <= 1000\)/);
    assert.match(sql, /7 AS __mapwright_n/);
  });
});

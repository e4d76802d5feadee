import path from 'node:path';
import { z } from 'zod';
import { areaLength, centroids } from '../../../src-shared/processing/geometryAlgorithms.js';
import { BadInputError } from '../errors.js';
import { q, selectList } from './fieldNames.js';
import { dimensionName } from './overlay.js';
import { runSingle } from './singleRun.js';
import { appendInChunks, createOutput } from './sqlOutput.js';
import type { AlgorithmRun } from './types.js';
import type { FieldSpec } from './workspace.js';

/** Centroids, and areas and lengths in true units. */

export const runCentroids: AlgorithmRun = async (params, output, ctx) => {
  const p = centroids.params.extend({ input: z.string() }).parse(params);
  return runSingle(p.input, ctx, {}, async ({ ws, a }) => {
    if (a.dimension === null) throw new BadInputError(`${path.basename(a.source)} has no geometry`);
    const target = await createOutput(output, { srs: a.srs, geometryType: 1, fields: a.fields });
    const point = p.inside ? 'ST_PointOnSurface(a.geom)' : 'ST_Centroid(a.geom)';
    const sql = (lo: number, hi: number): string =>
      `SELECT * FROM (SELECT ${[...selectList('a', a.fields), `${point} AS geom`].join(', ')} FROM a WHERE a.fid BETWEEN ${lo} AND ${hi}) WHERE geom IS NOT NULL`;
    await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: p.inside ? 'Points on surface' : 'Centroids' });
    const notes = [];
    if (a.srs?.isGeographic() && !p.inside)
      notes.push('Centroids were computed in degrees (the layer CRS); for large features reproject first for a true centre');
    const empty = Number((await ws.row('SELECT COUNT(*) AS n FROM a WHERE geom IS NULL OR ST_IsEmpty(geom)')).n ?? 0);
    if (empty) notes.push(`${empty} feature(s) without geometry were skipped`);
    return { target, notes };
  });
};

const AREA_DIVISOR = { m2: 1, ha: 1e4, km2: 1e6 } as const;
const LENGTH_DIVISOR = { m: 1, km: 1e3 } as const;

/**
 * Geodesic measures on the WGS 84 ellipsoid: the geometry is transformed to EPSG:4326 (GDAL's
 * own ST_Transform of the GeoPackage driver, which knows the layer's CRS by its srs_id), then
 * SpatiaLite's ST_Area(g, 1) and GeodesicLength(g) measure it on the ellipsoid. One target CRS
 * on purpose: GDAL caches a single transformation, and alternating targets in one SELECT
 * (say EPSG:6933 for areas and 4326 for lengths) rebuilds it for every row — 30× slower.
 */
export const runAreaLength: AlgorithmRun = async (params, output, ctx) => {
  const p = areaLength.params.extend({ input: z.string() }).parse(params);
  return runSingle(p.input, ctx, {}, async ({ ws, a }) => {
    const name = path.basename(a.source);
    if (a.dimension === null || a.dimension === 0)
      throw new BadInputError(`${name} holds ${dimensionName(a.dimension)}; areas and lengths need lines or polygons`);
    if (!a.srs) throw new BadInputError(`${name} has no CRS, so true areas and lengths cannot be known; set its CRS first`);
    await ws.enableGeodesic();
    const added: { spec: FieldSpec; sql: string }[] = [];
    const real = (n: string): FieldSpec => ({ name: n, type: 'real', width: 0, precision: 0 });
    const geodesic = `GeodesicLength(ST_Transform(a.geom, 4326)) / ${LENGTH_DIVISOR[p.length_unit]}`;
    if (a.dimension === 2) {
      added.push({ spec: real(`area_${p.area_unit}`), sql: `ST_Area(ST_Transform(a.geom, 4326), 1) / ${AREA_DIVISOR[p.area_unit]}` });
      added.push({ spec: real(`perimeter_${p.length_unit}`), sql: geodesic });
    } else {
      added.push({ spec: real(`length_${p.length_unit}`), sql: geodesic });
    }
    const addedNames = new Set(added.map((x) => x.spec.name.toLowerCase()));
    const kept = a.fields.filter((f) => !addedNames.has(f.name.toLowerCase()));
    const target = await createOutput(output, { srs: a.srs, geometryType: a.geometryType, fields: [...kept, ...added.map((x) => x.spec)] });
    const sql = (lo: number, hi: number): string =>
      `SELECT ${[...selectList('a', kept), 'a.geom AS geom', ...added.map((x) => `${x.sql} AS ${q(x.spec.name)}`)].join(', ')} FROM a WHERE a.fid BETWEEN ${lo} AND ${hi}`;
    await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: 'Measuring' });
    const notes = [
      a.dimension === 2
        ? `area_${p.area_unit}: geodesic area on the WGS 84 ellipsoid; perimeter_${p.length_unit}: geodesic length of the rings on WGS 84`
        : `length_${p.length_unit}: geodesic length on the WGS 84 ellipsoid`,
    ];
    if (kept.length < a.fields.length) notes.push('Existing fields of the same name were replaced');
    return { target, notes };
  });
};

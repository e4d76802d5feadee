import path from 'node:path';
import { z } from 'zod';
import { clip, difference, intersection, union } from '../../../src-shared/processing/overlayAlgorithms.js';
import { BadInputError } from '../errors.js';
import { NameAllocator, resolveFields, selectList } from './fieldNames.js';
import { type PairOptions, runPair } from './pairRun.js';
import { appendInChunks, createOutput, extractType, multiType } from './sqlOutput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import { bboxFilter, type StagedLayer } from './workspace.js';

/**
 * Clip, intersection, difference and union: SpatiaLite's GEOS overlays on the workspace copy,
 * the second layer pre-filtered by its R-tree for each feature of the first. Inputs are made
 * valid on the way in (GEOS refuses self-intersecting rings), and only parts of the output's
 * dimension are kept (two touching polygons intersect in a line, which a polygon layer drops).
 */

const twoLayers = { input: z.string(), overlay: z.string() };

function overlayRun(params: { input: string; overlay: string }, ctx: AlgorithmContext, work: Parameters<typeof runPair>[4], secondFields?: PairOptions['secondFields']) {
  return runPair({ param: 'input', source: params.input }, { param: 'overlay', source: params.overlay }, ctx, { makeValid: 'both', ...(secondFields ? { secondFields } : {}) }, work);
}

function requirePolygons(layer: StagedLayer, what: string): void {
  if (layer.dimension !== 2) throw new BadInputError(`'${what}' must be a polygon layer; ${path.basename(layer.source)} holds ${dimensionName(layer.dimension)}`);
}

export function dimensionName(d: number | null): string {
  return d === 0 ? 'points' : d === 1 ? 'lines' : d === 2 ? 'polygons' : 'no geometry';
}

/** Union of the overlay features meeting a.geom (NULL when none). */
function overlayUnion(b: StagedLayer): string {
  return `(SELECT ST_UnaryUnion(ST_Collect(b.geom)) FROM b WHERE ${bboxFilter(b, 'b', 'a.geom')} AND ST_Intersects(a.geom, b.geom))`;
}

/** Rows of `inner` whose computed geometry exists and is not empty. */
function nonEmpty(inner: string): string {
  return `SELECT * FROM (${inner}) WHERE geom IS NOT NULL AND NOT ST_IsEmpty(geom)`;
}

/** a's fields with its geometry cut by the union of overlapping b's: `op` is ST_Intersection or ST_Difference. */
function cutSql(a: StagedLayer, b: StagedLayer, op: 'ST_Intersection' | 'ST_Difference', lo: number, hi: number): string {
  const k = extractType(a.dimension as 0 | 1 | 2);
  const cut =
    op === 'ST_Intersection'
      ? `CollectionExtract(ST_Intersection(a.geom, x.u), ${k})`
      : `CASE WHEN x.u IS NULL THEN CastToMulti(a.geom) ELSE CollectionExtract(ST_Difference(a.geom, x.u), ${k}) END`;
  return nonEmpty(
    `SELECT ${[...selectList('a', a.fields), `${cut} AS geom`].join(', ')} ` +
      `FROM (SELECT a.fid AS xfid, ${overlayUnion(b)} AS u FROM a WHERE a.fid BETWEEN ${lo} AND ${hi}) AS x JOIN a ON a.fid = x.xfid` +
      (op === 'ST_Intersection' ? ' WHERE x.u IS NOT NULL' : ''),
  );
}

export const runClip: AlgorithmRun = async (params, output, ctx) => {
  const p = clip.params.extend(twoLayers).parse(params);
  return overlayRun(p, ctx, async ({ ws, a, b }) => {
    requirePolygons(b, 'overlay');
    const target = await createOutput(output, { srs: a.srs, geometryType: multiType(a.dimension!), fields: a.fields });
    await appendInChunks(ws, target, a, (lo, hi) => cutSql(a, b, 'ST_Intersection', lo, hi), ctx, { from: 0.3, to: 0.98, verb: 'Clipping' });
    return { target };
  });
};

export const runDifference: AlgorithmRun = async (params, output, ctx) => {
  const p = difference.params.extend(twoLayers).parse(params);
  return overlayRun(p, ctx, async ({ ws, a, b }) => {
    requirePolygons(b, 'overlay');
    const target = await createOutput(output, { srs: a.srs, geometryType: multiType(a.dimension!), fields: a.fields });
    await appendInChunks(ws, target, a, (lo, hi) => cutSql(a, b, 'ST_Difference', lo, hi), ctx, { from: 0.3, to: 0.98, verb: 'Cutting' });
    return { target };
  });
};

/** Output names of the overlay's fields next to the input's: clashes get _2. */
function overlayNames(a: StagedLayer, b: StagedLayer): string[] {
  const names = new NameAllocator(a.fields.map((f) => f.name));
  return b.fields.map((f) => names.take(f.name));
}

function intersectionSql(a: StagedLayer, b: StagedLayer, bNames: string[], dim: 0 | 1 | 2, lo: number, hi: number): string {
  const cols = [...selectList('a', a.fields), ...selectList('b', b.fields, bNames)];
  return nonEmpty(
    `SELECT ${cols.join(', ')}, CollectionExtract(ST_Intersection(a.geom, b.geom), ${extractType(dim)}) AS geom ` +
      `FROM a JOIN b ON ${bboxFilter(b, 'b', 'a.geom')} AND ST_Intersects(a.geom, b.geom) WHERE a.fid BETWEEN ${lo} AND ${hi}`,
  );
}

export const runIntersection: AlgorithmRun = async (params, output, ctx) => {
  const p = intersection.params.extend(twoLayers).parse(params);
  const keep = p.overlay_fields;
  return overlayRun(
    p,
    ctx,
    async ({ ws, a, b }) => {
      const dim = Math.min(a.dimension!, b.dimension!) as 0 | 1 | 2;
      const bNames = overlayNames(a, b);
      const target = await createOutput(output, {
        srs: a.srs,
        geometryType: multiType(dim),
        fields: [...a.fields, ...b.fields.map((f, i) => ({ ...f, name: bNames[i]! }))],
      });
      await appendInChunks(ws, target, a, (lo, hi) => intersectionSql(a, b, bNames, dim, lo, hi), ctx, { from: 0.3, to: 0.98, verb: 'Intersecting' });
      return { target, notes: renamedNote(b, bNames) };
    },
    keep ? (names) => resolveFields(keep, names.map((name) => ({ name, type: '', width: 0, precision: 0 })), 'overlay_fields', p.overlay).map((f) => f.name) : undefined,
  );
};

export const runUnion: AlgorithmRun = async (params, output, ctx) => {
  const p = union.params.extend(twoLayers).parse(params);
  return overlayRun(p, ctx, async ({ ws, a, b }) => {
    requirePolygons(a, 'input');
    requirePolygons(b, 'overlay');
    const bNames = overlayNames(a, b);
    const target = await createOutput(output, {
      srs: a.srs,
      geometryType: multiType(2),
      fields: [...a.fields, ...b.fields.map((f, i) => ({ ...f, name: bNames[i]! }))],
    });
    await appendInChunks(ws, target, a, (lo, hi) => intersectionSql(a, b, bNames, 2, lo, hi), ctx, { from: 0.3, to: 0.55, verb: 'Union: overlaps' });
    await appendInChunks(ws, target, a, (lo, hi) => cutSql(a, b, 'ST_Difference', lo, hi), ctx, { from: 0.55, to: 0.75, verb: 'Union: input outside overlay' });
    // The same cut the other way round: b's fields under their output names, a's left empty.
    const bOnly = (lo: number, hi: number): string =>
      nonEmpty(
        `SELECT ${[...selectList('b', b.fields, bNames), 'CASE WHEN x.u IS NULL THEN CastToMulti(b.geom) ELSE CollectionExtract(ST_Difference(b.geom, x.u), 3) END AS geom'].join(', ')} ` +
          `FROM (SELECT b.fid AS xfid, (SELECT ST_UnaryUnion(ST_Collect(a.geom)) FROM a WHERE ${bboxFilter(a, 'a', 'b.geom')} AND ST_Intersects(a.geom, b.geom)) AS u ` +
          `FROM b WHERE b.fid BETWEEN ${lo} AND ${hi}) AS x JOIN b ON b.fid = x.xfid`,
      );
    await appendInChunks(ws, target, b, bOnly, ctx, { from: 0.75, to: 0.98, verb: 'Union: overlay outside input' });
    return { target, notes: renamedNote(b, bNames) };
  });
};

function renamedNote(b: StagedLayer, bNames: string[]): string[] {
  const renamed = b.fields.map((f, i) => [f.name, bNames[i]!] as const).filter(([from, to]) => from !== to);
  return renamed.length ? [`Overlay fields renamed to avoid clashes: ${renamed.map(([from, to]) => `${from} → ${to}`).join(', ')}`] : [];
}

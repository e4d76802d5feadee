import path from 'node:path';
import type { SpatialReference } from 'gdal-async';
import { z } from 'zod';
import { clip, difference, intersection, union } from '../../../src-shared/processing/overlayAlgorithms.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { NameAllocator, resolveFields, selectList } from './fieldNames.js';
import { type PairOptions, requireGeometry, runPair, stagePair, stageSecond } from './pairRun.js';
import { finishRun } from './singleRun.js';
import { attachable, fidRange, sourceDimension, type SourceLayer, sourceLayer } from './sourceLayer.js';
import { appendInChunks, createOutput, extractType, type FidRange, inChunks, multiType, OutputWriter } from './sqlOutput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import type { VectorInput } from './vectorInput.js';
import { assumedNote, bboxFilter, type FieldSpec, type StagedLayer, withVectorInputs, withWorkspace, type Workspace } from './workspace.js';

/**
 * Clip, intersection, difference and union: SpatiaLite's GEOS overlays on the workspace copy,
 * the second layer pre-filtered by its R-tree for each feature of the first (clip reads a
 * GeoPackage input in place and cuts by the merged overlay, see runClip). Inputs are made valid
 * (GEOS refuses self-intersecting rings): on the way in, or for clip's in-place input in its
 * SELECT, only where ST_IsValid says so. Only parts of the output's dimension are kept (two
 * touching polygons intersect in a line, which a polygon layer drops).
 */

const twoLayers = { input: z.string(), overlay: z.string() };

function overlayRun(
  params: { input: string; overlay: string },
  ctx: AlgorithmContext,
  work: Parameters<typeof runPair>[4],
  secondFields?: PairOptions['secondFields'],
) {
  return runPair(
    { param: 'input', source: params.input },
    { param: 'overlay', source: params.overlay },
    ctx,
    { makeValid: 'both', ...(secondFields ? { secondFields } : {}) },
    work,
  );
}

function requirePolygons(layer: StagedLayer, what: string): void {
  if (layer.dimension !== 2)
    throw new BadInputError(`'${what}' must be a polygon layer; ${path.basename(layer.source)} holds ${dimensionName(layer.dimension)}`);
}

export function dimensionName(d: number | null): string {
  return d === 0 ? 'points' : d === 1 ? 'lines' : d === 2 ? 'polygons' : 'no geometry';
}

/** Union of the overlay features meeting a.geom (NULL when none). */
function overlayUnion(b: StagedLayer): string {
  return `(SELECT ST_UnaryUnion(ST_Collect(b.geom)) FROM b WHERE ${bboxFilter(b, 'b', 'a.geom')} AND ST_Intersects(a.geom, b.geom))`;
}

/**
 * Rows of `inner` whose computed geometry exists and is not empty. LIMIT/OFFSET keep SQLite from
 * flattening `inner` into this query, which would copy its geometry expression into both tests
 * and so compute every overlay three times.
 */
function nonEmpty(inner: string): string {
  return `SELECT * FROM (${inner} LIMIT -1 OFFSET 0) WHERE geom IS NOT NULL AND NOT ST_IsEmpty(geom)`;
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

/**
 * Clip: the overlay is staged (made valid, in the input's CRS), merged into one area and split
 * into its disjoint parts, cut further into pieces of at most CLIP_PIECE_VERTICES vertices, with
 * an R-tree. Each input feature then meets a few small pieces: one that covers it keeps the
 * feature as it is (a prepared-geometry test), the others are intersected, and pieces of one
 * feature are merged. A GeoPackage input is read where it lies (attached to the workspace's
 * SQL, in fid chunks); other formats are staged as before.
 */
const CLIP_PIECE_VERTICES = 256;

/** The side of a clip that is cut: a staged table or a GeoPackage attached as `src`. */
interface ClipInput {
  /** FROM target: `a`, or `src."layer"`. */
  from: string;
  geom: string;
  fid: string;
  fields: FieldSpec[];
  dimension: 0 | 1 | 2;
  srs: SpatialReference | null;
  range: FidRange;
  /** Made valid on the way in (staged); otherwise invalid geometries are repaired in the SELECT. */
  valid: boolean;
}

export const runClip: AlgorithmRun = async (params, output, ctx) => {
  const p = clip.params.extend(twoLayers).parse(params);
  return withVectorInputs({ input: p.input, overlay: p.overlay }, (inputs) =>
    withWorkspace(async (ws) => {
      const first = inputs.input!;
      const second = inputs.overlay!;
      const direct = sourceLayer(first);
      const { a, u, notes } =
        direct && attachable(direct) ? await clipInPlace(ws, direct, second, ctx) : await clipStaged(ws, first, second, ctx);
      throwIfCancelled(ctx.signal);
      const writer = await OutputWriter.create(output, { srs: a.srs, geometryType: multiType(a.dimension), fields: a.fields });
      try {
        const ds = ws.dataset();
        // An overlay without polygons covers nothing: the output stays empty.
        if (u)
          await inChunks(a.range, (lo, hi) => writer.append(ds, clipSql(a, u, lo, hi)), ctx, { from: 0.3, to: 0.97, verb: 'Clipping' });
        ctx.progress(0.98, 'Writing the spatial index');
        await writer.close();
      } catch (err) {
        writer.abandon();
        throw err;
      }
      return finishRun(writer.target, ctx, notes);
    }),
  );
};

/** The input stays where it is: only the overlay is staged, and the input attached to the workspace. */
async function clipInPlace(
  ws: Workspace,
  first: SourceLayer,
  second: VectorInput,
  ctx: AlgorithmContext,
): Promise<{ a: ClipInput; u: StagedLayer | null; notes: string[] }> {
  const { b, notes } = await stageSecond(ws, { srs: first.srs, path: first.input.path }, second, ctx, {
    makeValid: true,
    from: 0.02,
    to: 0.2,
  });
  const dimension = await sourceDimension(first);
  // The output is in the input's CRS; when only the overlay knows one, it is that one.
  const srs = first.srs ?? b.srs;
  notes.unshift(...assumedNote({ assumedWgs84: first.assumedWgs84, source: first.input.path }), ...assumedNote(b));
  requireGeometry(dimension, first.input.path);
  requireGeometry(b.dimension, second.path);
  requirePolygons(b, 'overlay');
  const range = await fidRange(first);
  const u = await mergedOverlay(ws, b, ctx, 0.2);
  ws.attach(first.input.path, 'src');
  const a: ClipInput = {
    from: `src.${first.table}`,
    geom: first.geom,
    fid: first.fid!,
    fields: first.fields,
    dimension: dimension!,
    srs,
    range,
    valid: false,
  };
  return { a, u, notes };
}

/** Both layers staged (the input made valid on the way in), as every overlay does. */
async function clipStaged(
  ws: Workspace,
  first: VectorInput,
  second: VectorInput,
  ctx: AlgorithmContext,
): Promise<{ a: ClipInput; u: StagedLayer | null; notes: string[] }> {
  const { a, b, notes } = await stagePair(ws, first, second, ctx, { makeValid: 'both' });
  requirePolygons(b, 'overlay');
  const u = await mergedOverlay(ws, b, ctx, 0.3);
  return {
    a: { from: 'a', geom: 'geom', fid: 'fid', fields: a.fields, dimension: a.dimension!, srs: a.srs, range: a, valid: true },
    u,
    notes,
  };
}

async function mergedOverlay(ws: Workspace, b: StagedLayer, ctx: AlgorithmContext, at: number): Promise<StagedLayer | null> {
  throwIfCancelled(ctx.signal);
  ctx.progress(at, `Merging the polygons of ${path.basename(b.source)}`);
  const u = await ws.stageDissolved(b, 'u', CLIP_PIECE_VERTICES);
  throwIfCancelled(ctx.signal);
  return u;
}

function clipSql(a: ClipInput, u: StagedLayer, lo: number, hi: number): string {
  const k = extractType(a.dimension);
  const own = `t.${a.geom}`;
  const g = a.valid ? own : `CASE WHEN ST_IsValid(${own}) = 1 THEN ${own} ELSE CollectionExtract(ST_MakeValid(${own}), ${k}) END`;
  // The input's rows with their geometry computed once (LIMIT/OFFSET: no flattening).
  const rows =
    `SELECT ${[...selectList('t', a.fields), `${g} AS ${CLIP_GEOM}`].join(', ')} FROM ${a.from} AS t ` +
    `WHERE t.${a.fid} BETWEEN ${lo} AND ${hi} AND ${own} IS NOT NULL AND NOT ST_IsEmpty(${own}) LIMIT -1 OFFSET 0`;
  const ag = `a.${CLIP_GEOM}`;
  const piece =
    `CASE WHEN ST_Covers(u.geom, ${ag}) = 1 THEN ${ag} ` +
    `WHEN ST_Intersects(u.geom, ${ag}) = 1 THEN CollectionExtract(ST_Intersection(${ag}, u.geom), ${k}) END`;
  const pieces = `SELECT ${piece} AS p FROM u WHERE ${bboxFilter(u, 'u', ag)} LIMIT -1 OFFSET 0`;
  // Pieces of the overlay share edges: a feature cut by several is merged back together.
  const cut = `(SELECT CASE WHEN COUNT(p) > 1 THEN ST_UnaryUnion(ST_Collect(p)) ELSE ST_Collect(p) END FROM (${pieces}) WHERE p IS NOT NULL)`;
  return nonEmpty(`SELECT ${[...selectList('a', a.fields), `CollectionExtract(${cut}, ${k}) AS geom`].join(', ')} FROM (${rows}) AS a`);
}

/** The input geometry's name inside clipSql (not a field name anyone uses). */
const CLIP_GEOM = 'mapwright_clip_geom';

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
      await appendInChunks(ws, target, a, (lo, hi) => intersectionSql(a, b, bNames, dim, lo, hi), ctx, {
        from: 0.3,
        to: 0.98,
        verb: 'Intersecting',
      });
      return { target, notes: renamedNote(b, bNames) };
    },
    keep
      ? (names) =>
          resolveFields(
            keep,
            names.map((name) => ({ name, type: '', width: 0, precision: 0 })),
            'overlay_fields',
            p.overlay,
          ).map((f) => f.name)
      : undefined,
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
    await appendInChunks(ws, target, a, (lo, hi) => intersectionSql(a, b, bNames, 2, lo, hi), ctx, {
      from: 0.3,
      to: 0.55,
      verb: 'Union: overlaps',
    });
    await appendInChunks(ws, target, a, (lo, hi) => cutSql(a, b, 'ST_Difference', lo, hi), ctx, {
      from: 0.55,
      to: 0.75,
      verb: 'Union: input outside overlay',
    });
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

import path from 'node:path';
import type { SpatialReference } from 'gdal-async';
import { BadInputError, throwIfCancelled } from '../errors.js';
import type { AlgorithmOutput } from '../protocol.js';
import { finishRun } from './singleRun.js';
import type { OutputTarget } from './sqlOutput.js';
import type { AlgorithmContext } from './types.js';
import type { VectorInput } from './vectorInput.js';
import { assumedNote, type Dimension, sourceSrs, type StagedLayer, withVectorInputs, withWorkspace, type Workspace } from './workspace.js';

export interface Pair {
  ws: Workspace;
  a: StagedLayer;
  b: StagedLayer;
  notes: string[];
}

export interface PairOptions {
  /** 'both' for overlays (new geometries); 'second' where the first layer's geometries are output unchanged. */
  makeValid: 'both' | 'second';
  /** The second layer's fields to stage, from its field names (default all). */
  secondFields?: (names: string[]) => string[];
}

/**
 * The frame of every two-layer algorithm: open both sources, stage them (the second in the
 * first's CRS), let `work` fill the output, count what was written, clean up.
 */
export async function runPair(
  first: { param: string; source: string },
  second: { param: string; source: string },
  ctx: AlgorithmContext,
  opts: PairOptions,
  work: (pair: Pair) => Promise<{ target: OutputTarget; notes?: string[]; report?: Record<string, unknown> }>,
): Promise<AlgorithmOutput> {
  return withVectorInputs({ [first.param]: first.source, [second.param]: second.source }, (inputs) =>
    withWorkspace(async (ws) => {
      const one = inputs[first.param]!;
      const two = inputs[second.param]!;
      const fields = opts.secondFields?.(two.layer.fields.getNames());
      const { a, b, notes } = await stagePair(ws, one, two, ctx, {
        makeValid: opts.makeValid,
        ...(fields ? { secondFields: fields } : {}),
      });
      const { target, notes: more = [], report } = await work({ ws, a, b, notes });
      return { ...(await finishRun(target, ctx, [...notes, ...more])), ...(report ? { report } : {}) };
    }),
  );
}

/**
 * Stages the inputs of a two-layer algorithm: the second is reprojected into the first's CRS
 * when they differ. Notes say what was assumed or done.
 */
export async function stagePair(
  ws: Workspace,
  first: VectorInput,
  second: VectorInput,
  ctx: AlgorithmContext,
  /** makeValid: 'both' for overlays (new geometries); 'second' where the first layer's geometries are output unchanged. */
  opts: { makeValid?: 'both' | 'second'; secondFields?: string[] } = {},
): Promise<{ a: StagedLayer; b: StagedLayer; notes: string[] }> {
  ctx.progress(0.02, `Reading ${path.basename(first.path)}`);
  const a = await ws.stage(first, 'a', { makeValid: opts.makeValid === 'both', onProgress: reading(ctx, first, 0.02, 0.15) });
  throwIfCancelled(ctx.signal);
  const { b, notes } = await stageSecond(ws, { srs: a.srs, path: first.path }, second, ctx, {
    makeValid: opts.makeValid !== undefined,
    from: 0.15,
    to: 0.3,
    ...(opts.secondFields ? { fields: opts.secondFields } : {}),
  });
  // The output is in the first layer's CRS; when only the second knows one, it is that one.
  if (!a.srs && b.srs) a.srs = b.srs;
  notes.unshift(...assumedNote(a), ...assumedNote(b));
  requireGeometry(a.dimension, first.path);
  requireGeometry(b.dimension, second.path);
  return { a, b, notes };
}

function reading(ctx: AlgorithmContext, input: VectorInput, from: number, to: number): (f: number) => void {
  return (f) => ctx.progress(from + (to - from) * f, `Reading ${path.basename(input.path)}`);
}

/**
 * Stages the second layer of a two-layer algorithm as `b`, reprojected into the first's CRS
 * when they differ; the notes say what was done or assumed about the CRSs.
 */
export async function stageSecond(
  ws: Workspace,
  first: { srs: SpatialReference | null; path: string },
  second: VectorInput,
  ctx: AlgorithmContext,
  opts: { makeValid: boolean; from: number; to: number; fields?: string[] },
): Promise<{ b: StagedLayer; notes: string[] }> {
  const notes: string[] = [];
  let targetSrs: SpatialReference | null = null;
  const secondSrs = sourceSrs(second).srs;
  if (first.srs && secondSrs && !first.srs.isSame(secondSrs)) {
    targetSrs = first.srs;
    notes.push(
      `${path.basename(second.path)} was reprojected to the CRS of ${path.basename(first.path)} (${crsLabel(first.srs)}) for this operation`,
    );
  } else if (!first.srs !== !secondSrs) {
    notes.push(`Only one of the two layers has a CRS; both were taken to be in ${crsLabel(first.srs ?? secondSrs)}`);
  }
  ctx.progress(opts.from, `Reading ${path.basename(second.path)}`);
  const b = await ws.stage(second, 'b', {
    targetSrs,
    makeValid: opts.makeValid,
    onProgress: reading(ctx, second, opts.from, opts.to),
    ...(opts.fields ? { fields: opts.fields } : {}),
  });
  throwIfCancelled(ctx.signal);
  return { b, notes };
}

/** Both layers of a two-layer algorithm must have geometries. */
export function requireGeometry(dimension: Dimension, source: string): void {
  if (dimension === null) throw new BadInputError(`${source} has no geometry; this algorithm needs a vector layer`);
}

export function crsLabel(srs: SpatialReference | null): string {
  if (!srs) return 'an unknown CRS';
  try {
    const code = srs.getAuthorityCode(null);
    const name = /^\s*[A-Z_]+\s*\[\s*"([^"]*)"/.exec(srs.toWKT())?.[1];
    return code ? `EPSG:${code}${name ? ` ${name}` : ''}` : (name ?? 'a custom CRS');
  } catch {
    return 'a custom CRS';
  }
}

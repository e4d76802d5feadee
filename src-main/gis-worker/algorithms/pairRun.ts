import type { AlgorithmResult } from '../protocol.js';
import { outputFeatureCount, type OutputTarget } from './sqlOutput.js';
import type { AlgorithmContext } from './types.js';
import { stagePair, type StagedLayer, withVectorInputs, withWorkspace, type Workspace } from './workspace.js';

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
): Promise<AlgorithmResult> {
  return withVectorInputs({ [first.param]: first.source, [second.param]: second.source }, (inputs) =>
    withWorkspace(async (ws) => {
      const one = inputs[first.param]!;
      const two = inputs[second.param]!;
      const fields = opts.secondFields?.(two.layer.fields.getNames());
      const { a, b, notes } = await stagePair(ws, one, two, ctx, { makeValid: opts.makeValid, ...(fields ? { secondFields: fields } : {}) });
      const { target, notes: more = [], report } = await work({ ws, a, b, notes });
      const featureCount = await outputFeatureCount(target);
      ctx.progress(1, `${featureCount.toLocaleString('en-US')} features written`);
      return { output: `${target.path}|layername=${target.layerName}`, featureCount, notes: [...notes, ...more], ...(report ? { report } : {}) };
    }),
  );
}

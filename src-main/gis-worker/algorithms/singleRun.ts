import path from 'node:path';
import { formatSource } from '../../../src-shared/domain/source.js';
import type { AlgorithmOutput } from '../protocol.js';
import { throwIfCancelled } from '../errors.js';
import { outputFeatureCount, type OutputTarget } from './sqlOutput.js';
import type { AlgorithmContext } from './types.js';
import type { VectorInput } from './vectorInput.js';
import { assumedNote, type StagedLayer, type StageOptions, withVectorInputs, withWorkspace, type Workspace } from './workspace.js';

export interface Single {
  ws: Workspace;
  a: StagedLayer;
}

/** The frame of a one-layer SQL algorithm: stage the input as `a`, let `work` fill the output, count it, clean up. */
export async function runSingle(
  source: string,
  ctx: AlgorithmContext,
  opts: StageOptions,
  work: (single: Single) => Promise<{ target: OutputTarget; notes?: string[] }>,
): Promise<AlgorithmOutput> {
  return withVectorInputs({ input: source }, (inputs) => runSingleOn(inputs.input!, ctx, opts, work));
}

/** runSingle on an input already open (the caller closes it). */
export async function runSingleOn(
  input: VectorInput,
  ctx: AlgorithmContext,
  opts: StageOptions,
  work: (single: Single) => Promise<{ target: OutputTarget; notes?: string[] }>,
): Promise<AlgorithmOutput> {
  return withWorkspace(async (ws) => {
    ctx.progress(0.02, `Reading ${path.basename(input.path)}`);
    const a = await ws.stage(input, 'a', {
      ...opts,
      onProgress: (f) => ctx.progress(0.02 + 0.28 * f, `Reading ${path.basename(input.path)}`),
    });
    throwIfCancelled(ctx.signal);
    const { target, notes = [] } = await work({ ws, a });
    return finishRun(target, ctx, [...assumedNote(a), ...notes]);
  });
}

/** Counts what was written, says so, and builds the result. */
export async function finishRun(target: OutputTarget, ctx: AlgorithmContext, notes: string[]): Promise<AlgorithmOutput> {
  const featureCount = await outputFeatureCount(target);
  ctx.progress(1, `${featureCount.toLocaleString('en-US')} features written`);
  return { output: formatSource({ path: target.path, sublayer: target.layerName }), featureCount, notes };
}

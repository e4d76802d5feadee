import type { Layer } from '../../src-shared/domain/layer.js';
import type { GdalHandle, PostgisHandle } from '../../src-shared/tools/handles.js';
import type { CallParams, CallResult } from '../../src-shared/worker/workerCalls.js';
import { fakeProject } from '../toolTestFakes.js';
import { runAlgorithm } from './runAlgorithm.js';

export type AlgorithmRequest = CallParams<'processing.run'>;

/**
 * For the processing_run tests: the tool over fake handles — a project of `layers`, and a
 * worker that keeps each `processing.run` request and answers it with `answer`. `run` parses,
 * prepares and executes as the tool host does, and gives what reached the worker last.
 */
export function runAlgorithmHarness(
  layers: readonly Layer[],
  answer: (req: AlgorithmRequest) => Omit<CallResult<'processing.run'>, 'info'>,
  /** The PostGIS side (push-down); by default no connection can run anything. */
  postgis: PostgisHandle = noPostgis,
) {
  const requests: AlgorithmRequest[] = [];
  const project = fakeProject(layers);
  const gdal = {
    async call(fn: string, req: AlgorithmRequest) {
      if (fn !== 'processing.run') throw new Error(`unexpected worker call ${fn}`);
      requests.push(req);
      return answer(req);
    },
  } as unknown as GdalHandle;
  const ctx = { handles: { project, gdal, postgis }, caller: 'model' as const, signal: new AbortController().signal, progress: () => {} };
  async function run(args: { algorithm: string; params: Record<string, unknown>; output_name?: string }) {
    const parsed = runAlgorithm.input.parse(args);
    const prepared = await runAlgorithm.prepare!(parsed, ctx);
    const result = (await runAlgorithm.execute(prepared.args, ctx)) as Record<string, unknown>;
    return { prepared, request: requests.at(-1)!, result };
  }
  return { run };
}

const unused = () => {
  throw new Error('no PostGIS in this test');
};
const noPostgis: PostgisHandle = {
  pushdownPlan: () => ({ ok: false, reason: 'no PostGIS connection is saved' }),
  pushdown: unused,
  tables: unused,
  query: unused,
};

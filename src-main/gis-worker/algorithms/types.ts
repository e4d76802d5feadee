import type { ProgressFn } from '../progressThrottle.js';
import type { AlgorithmOutput } from '../protocol.js';

export interface AlgorithmContext {
  signal: AbortSignal;
  progress: ProgressFn;
}

/** One algorithm's worker half: params already validated in main and layer refs resolved. */
export type AlgorithmRun = (params: Record<string, unknown>, output: string, ctx: AlgorithmContext) => Promise<AlgorithmOutput>;

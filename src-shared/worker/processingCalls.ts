import { z } from 'zod';
import { LayerInfo } from '../domain/layer.js';
import { workerCall } from './callSpec.js';

/** What an algorithm's worker half reports about what it wrote. */
export const AlgorithmOutput = z.object({
  /** `path` or `path|layername=NAME` of what was written. */
  output: z.string(),
  featureCount: z.number().int().nullable(),
  /** Facts worth telling the model (e.g. features skipped and why). */
  notes: z.array(z.string()),
  /** Structured facts the model reads (join_by_field: unmatched and duplicated keys). */
  report: z.record(z.string(), z.unknown()).optional(),
});
export type AlgorithmOutput = z.infer<typeof AlgorithmOutput>;

/** The processing family: the algorithms of the catalogue (src-shared/processing). */
export const PROCESSING_CALLS = {
  /**
   * Runs one algorithm. Layer params arrive already resolved to sources; `output` is a new file
   * in the project's outputs folder. The result describes the layer written (`info`), so main
   * adds it without opening it again. Reports progress.
   */
  'processing.run': workerCall({
    params: z.object({ algorithm: z.string().min(1), params: z.record(z.string(), z.unknown()), output: z.string().min(1) }),
    result: AlgorithmOutput.extend({ info: LayerInfo }),
    doing: (p) => `running ${p.algorithm} into ${p.output}`,
    writes: (p) => p.output,
  }),
};

import { z } from 'zod';
import type { LayerInfo } from '../../src-shared/domain/layer.js';
import { RasterStyle } from '../../src-shared/style/styleModel.js';

/**
 * The worker protocol: structured messages between main and the GIS worker process, the
 * only process that loads GDAL. Main validates every reply with these schemas, because a
 * worker that half-crashed may send anything.
 */
export const WorkerRequest = z.discriminatedUnion('op', [
  /** Open a source (`path` or `path|layername=NAME`) and describe it. Result: LayerInfo. */
  z.object({ op: z.literal('describe'), source: z.string() }),
  /** All features reprojected to EPSG:4326. Result: GeoJSON FeatureCollection as text. */
  z.object({ op: z.literal('vectorGeoJSON'), source: z.string() }),
  /**
   * One 256×256 Web Mercator (XYZ) tile of a raster, styled. Result: PNG bytes, or null
   * when the tile lies outside the raster.
   */
  z.object({
    op: z.literal('rasterTile'),
    source: z.string(),
    z: z.number().int().min(0).max(24),
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    style: RasterStyle,
  }),
  /**
   * Run a processing algorithm of the catalogue (src-shared/processing). Layer params arrive
   * already resolved to sources; `output` is a new file in the project's outputs folder.
   * Result: AlgorithmResult. Reports progress.
   */
  /**
   * A named worker function (inspect queries, statistics, classification): the family
   * registries under gis-worker/functions/ implement them; the caller in main validates the
   * result with its own schema. Result: whatever the function returns (structured-cloneable).
   */
  z.object({ op: z.literal('call'), fn: z.string(), args: z.unknown() }),
  z.object({
    op: z.literal('runAlgorithm'),
    algorithm: z.string(),
    params: z.record(z.string(), z.unknown()),
    output: z.string(),
  }),
]);
export type WorkerRequest = z.infer<typeof WorkerRequest>;

export const AlgorithmResult = z.object({
  /** `path` or `path|layername=NAME` of what was written. */
  output: z.string(),
  featureCount: z.number().int().nullable(),
  /** Facts worth telling the model (e.g. features skipped and why). */
  notes: z.array(z.string()),
  /** Structured facts the model reads (join_by_field: unmatched and duplicated keys). */
  report: z.record(z.string(), z.unknown()).optional(),
});
export type AlgorithmResult = z.infer<typeof AlgorithmResult>;

export interface WorkerResults {
  call: unknown;
  runAlgorithm: AlgorithmResult;
  describe: LayerInfo;
  vectorGeoJSON: string;
  rasterTile: Uint8Array | null;
}

/** `bad_input`: the source is missing, unreadable or not GIS data; `internal`: a bug or GDAL failure. */
export const WorkerErrorCode = z.enum(['bad_input', 'internal']);
export type WorkerErrorCode = z.infer<typeof WorkerErrorCode>;

export const MainToWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), id: z.number().int(), request: WorkerRequest }),
  z.object({ type: z.literal('cancel'), id: z.number().int() }),
]);
export type MainToWorker = z.infer<typeof MainToWorker>;

export const WorkerToMain = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), gdalVersion: z.string() }),
  z.object({ type: z.literal('progress'), id: z.number().int(), fraction: z.number(), message: z.string() }),
  z.object({ type: z.literal('result'), id: z.number().int(), value: z.unknown() }),
  z.object({
    type: z.literal('error'),
    id: z.number().int(),
    code: WorkerErrorCode,
    message: z.string(),
  }),
]);
export type WorkerToMain = z.infer<typeof WorkerToMain>;

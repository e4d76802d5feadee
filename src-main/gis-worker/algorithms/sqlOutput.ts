import type { Dataset, SpatialReference } from 'gdal-async';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import type { AlgorithmContext } from './types.js';
import { outputLayerName } from './vectorInput.js';
import type { FieldSpec, Workspace } from './workspace.js';
import { fidChunks } from './workspace.js';

/**
 * The output side of the SQL algorithms. The output layer is created first with the exact
 * field types (GDAL 3.6 types computed SQL columns as text), then filled by ogr2ogr -append
 * from SELECTs — on the workspace, or straight on the source (OutputWriter) — in fid ranges
 * so progress is real and Stop is honoured between them.
 */

export interface OutputSchema {
  srs: SpatialReference | null;
  /** OGR geometry type without Z/M (see geometryTypeFor); gdal.wkbNone for a table. */
  geometryType: number;
  fields: FieldSpec[];
}

export interface OutputTarget {
  path: string;
  layerName: string;
  /** ogr2ogr -nlt for the appends, so every piece lands as the layer's type (Polygon → MultiPolygon). */
  nlt: string | null;
}

const NLT: Record<number, string> = {
  1: 'POINT',
  2: 'LINESTRING',
  3: 'POLYGON',
  4: 'MULTIPOINT',
  5: 'MULTILINESTRING',
  6: 'MULTIPOLYGON',
};

/** The multi type of a dimension: what overlays write, since a cut polygon may fall in pieces. */
export function multiType(dimension: 0 | 1 | 2): number {
  return 4 + dimension;
}

/** SpatiaLite CollectionExtract type for a dimension: keeps the parts an overlay should keep. */
export function extractType(dimension: 0 | 1 | 2): 1 | 2 | 3 {
  return (dimension + 1) as 1 | 2 | 3;
}

export async function createOutput(output: string, schema: OutputSchema): Promise<OutputTarget> {
  const writer = await OutputWriter.create(output, schema);
  await writer.close();
  return writer.target;
}

/**
 * The output layer kept open while it is filled: each append is one ogr2ogr -append of a
 * SELECT into the same open GeoPackage, so nothing is reopened between chunks and GDAL builds
 * the layer's R-tree once, in bulk, when the writer is closed (a layer reopened for each append
 * updates it row by row through triggers).
 */
export class OutputWriter {
  private ds: Dataset | null;

  private constructor(
    readonly target: OutputTarget,
    ds: Dataset,
  ) {
    this.ds = ds;
  }

  static async create(output: string, schema: OutputSchema): Promise<OutputWriter> {
    const { path, layerName } = outputLayerName(output);
    const table = schema.geometryType === gdal.wkbNone;
    const ds = await gdal.drivers.get('GPKG').createAsync(path, 0, 0, 0, gdal.GDT_Unknown);
    try {
      const layer = ds.layers.create(
        layerName,
        table ? null : schema.srs,
        NLT[schema.geometryType] ? schema.geometryType : table ? gdal.wkbNone : gdal.wkbUnknown,
      );
      for (const f of schema.fields) {
        const def = new gdal.FieldDefn(f.name, f.type);
        if (f.width) def.width = f.width;
        if (f.precision) def.precision = f.precision;
        layer.fields.add(def);
      }
    } catch (err) {
      ds.close();
      throw err;
    }
    return new OutputWriter({ path, layerName, nlt: table ? null : (NLT[schema.geometryType] ?? null) }, ds);
  }

  /** Appends the rows of one SQLite-dialect SELECT run on `source` (native on a GeoPackage). */
  async append(source: Dataset, sql: string): Promise<void> {
    if (!this.ds) throw new Error('The output is already closed');
    const args = ['-append', '-nln', this.target.layerName, '-unsetFid', '-dialect', 'SQLite', '-sql', sql];
    if (this.target.nlt) args.push('-nlt', this.target.nlt);
    try {
      await gdal.vectorTranslateAsync(this.ds, source, args);
    } catch (err) {
      throw appendFailure(err, sql);
    }
  }

  /**
   * After a failure or Stop: closes without waiting, so the error is answered at once (GDAL
   * still finishes the file in the background; the host deletes a cancelled output).
   */
  abandon(): void {
    this.close().catch(() => undefined);
  }

  /** Writes what is pending (the R-tree among it) off the event loop, then closes. Safe to call twice. */
  async close(): Promise<void> {
    const ds = this.ds;
    this.ds = null;
    if (!ds) return;
    try {
      await ds.flushAsync();
    } finally {
      ds.close();
    }
  }
}

/** Appends the rows of one SELECT on the workspace to the output layer. */
export async function appendSelect(ws: Workspace, target: OutputTarget, sql: string): Promise<void> {
  const args = ['-update', '-append', '-nln', target.layerName, '-unsetFid', '-sql', sql];
  if (target.nlt) args.push('-nlt', target.nlt);
  try {
    const out = await gdal.vectorTranslateAsync(target.path, ws.dataset(), args);
    out.close();
  } catch (err) {
    throw appendFailure(err, sql);
  }
}

/** A SpatiaLite/GEOS refusal is about the person's geometries, a grammar error about their expression; anything else is ours. */
function appendFailure(err: unknown, sql: string): Error {
  const reason = gdalReason(err);
  if (/GEOS|TopologyException|geometry/i.test(reason)) return new BadInputError(`GDAL could not process the geometries: ${reason}`);
  // Expressions pass our checks token by token; SQLite judges the grammar.
  if (/syntax error|incomplete input|wrong number of arguments|misuse of/i.test(reason))
    return new BadInputError(`The expression is not valid SQL: ${reason}`);
  return new Error(`SQL failed: ${reason}\n${sql}`);
}

/**
 * Appends `sqlFor(lo, hi)` for fid ranges of the driving layer, reporting progress from
 * `from` to `to` of the whole job.
 */
export async function appendInChunks(
  ws: Workspace,
  target: OutputTarget,
  range: FidRange,
  sqlFor: (lo: number, hi: number) => string,
  ctx: AlgorithmContext,
  step: ChunkStep,
): Promise<void> {
  await inChunks(range, (lo, hi) => appendSelect(ws, target, sqlFor(lo, hi)), ctx, step);
}

export interface FidRange {
  minFid: number;
  maxFid: number;
  count: number;
}

export interface ChunkStep {
  from: number;
  to: number;
  verb: string;
}

/**
 * Runs `work(lo, hi)` for fid ranges of the driving layer: Stop is honoured between them and
 * progress goes from `from` to `to` of the whole job.
 */
export async function inChunks(
  range: FidRange,
  work: (lo: number, hi: number) => Promise<void>,
  ctx: AlgorithmContext,
  step: ChunkStep,
): Promise<void> {
  const chunks = fidChunks(range);
  let done = 0;
  for (const [lo, hi] of chunks) {
    throwIfCancelled(ctx.signal);
    await work(lo, hi);
    done++;
    const share = done / chunks.length;
    const features = Math.min(range.count, Math.round(share * range.count));
    ctx.progress(
      step.from + (step.to - step.from) * share,
      `${step.verb}: ${features.toLocaleString('en-US')} of ${range.count.toLocaleString('en-US')} features`,
    );
  }
  throwIfCancelled(ctx.signal);
}

/**
 * One GDAL call that cannot report how far it is (an SQL pass over a file read front to back):
 * the fraction stays at `fraction` and the message says every second that it is still going.
 */
export async function inOnePass<T>(ctx: AlgorithmContext, fraction: number, message: string, work: () => Promise<T>): Promise<T> {
  throwIfCancelled(ctx.signal);
  const started = Date.now();
  ctx.progress(fraction, message);
  const timer = setInterval(() => ctx.progress(fraction, `${message} (${Math.round((Date.now() - started) / 1000)} s)`), 1000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

export async function outputFeatureCount(target: OutputTarget): Promise<number> {
  const ds = await gdal.openAsync(target.path, 'r');
  try {
    return ds.layers.get(target.layerName).features.count();
  } finally {
    ds.close();
  }
}

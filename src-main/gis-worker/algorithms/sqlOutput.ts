import type { SpatialReference } from 'gdal-async';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import type { AlgorithmContext } from './types.js';
import { outputLayerName } from './vectorInput.js';
import type { FieldSpec, Workspace } from './workspace.js';
import { fidChunks } from './workspace.js';

/**
 * The output side of the SQL algorithms. The output layer is created first with the exact
 * field types (GDAL 3.6 types computed SQL columns as text), then filled by ogr2ogr -append
 * from SELECTs on the workspace, in fid ranges so progress is real and Stop is honoured
 * between them.
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
  const { path, layerName } = outputLayerName(output);
  const table = schema.geometryType === gdal.wkbNone;
  const ds = await gdal.drivers.get('GPKG').createAsync(path, 0, 0, 0, gdal.GDT_Unknown);
  try {
    const layer = ds.layers.create(layerName, table ? null : schema.srs, NLT[schema.geometryType] ? schema.geometryType : table ? gdal.wkbNone : gdal.wkbUnknown);
    for (const f of schema.fields) {
      const def = new gdal.FieldDefn(f.name, f.type);
      if (f.width) def.width = f.width;
      if (f.precision) def.precision = f.precision;
      layer.fields.add(def);
    }
  } finally {
    ds.close();
  }
  return { path, layerName, nlt: table ? null : (NLT[schema.geometryType] ?? null) };
}

/** Appends the rows of one SELECT on the workspace to the output layer. */
export async function appendSelect(ws: Workspace, target: OutputTarget, sql: string): Promise<void> {
  const args = ['-update', '-append', '-nln', target.layerName, '-unsetFid', '-sql', sql];
  if (target.nlt) args.push('-nlt', target.nlt);
  try {
    const out = await gdal.vectorTranslateAsync(target.path, ws.dataset(), args);
    out.close();
  } catch (err) {
    const reason = gdalReason(err);
    // A SpatiaLite/GEOS refusal is about the person's geometries; anything else is ours.
    if (/GEOS|TopologyException|geometry/i.test(reason)) throw new BadInputError(`GDAL could not process the geometries: ${reason}`);
    // Expressions pass our checks token by token; SQLite judges the grammar.
    if (/syntax error|incomplete input|wrong number of arguments|misuse of/i.test(reason)) throw new BadInputError(`The expression is not valid SQL: ${reason}`);
    throw new Error(`SQL failed: ${reason}\n${sql}`);
  }
}

/**
 * Appends `sqlFor(lo, hi)` for fid ranges of the driving layer, reporting progress from
 * `from` to `to` of the whole job.
 */
export async function appendInChunks(
  ws: Workspace,
  target: OutputTarget,
  range: { minFid: number; maxFid: number; count: number },
  sqlFor: (lo: number, hi: number) => string,
  ctx: AlgorithmContext,
  step: { from: number; to: number; verb: string },
): Promise<void> {
  const chunks = fidChunks(range);
  let done = 0;
  for (const [lo, hi] of chunks) {
    throwIfCancelled(ctx.signal);
    await appendSelect(ws, target, sqlFor(lo, hi));
    done++;
    const share = done / chunks.length;
    const features = Math.min(range.count, Math.round(share * range.count));
    ctx.progress(step.from + (step.to - step.from) * share, `${step.verb}: ${features.toLocaleString('en-US')} of ${range.count.toLocaleString('en-US')} features`);
  }
  throwIfCancelled(ctx.signal);
}

export async function outputFeatureCount(target: OutputTarget): Promise<number> {
  const ds = await gdal.openAsync(target.path, 'r');
  try {
    return ds.layers.get(target.layerName).features.count();
  } finally {
    ds.close();
  }
}

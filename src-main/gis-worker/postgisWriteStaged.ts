import { createReadStream, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Dataset, Layer, SpatialReference } from 'gdal-async';
import { formatSource, parseSource } from '../../src-shared/domain/source.js';
import type { CallArgs } from '../../src-shared/worker/workerCalls.js';
import { BadInputError, CancelledError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import type { FunctionContext } from './functions/types.js';

/** Rows per SQLite transaction: one commit each, Stop and progress between them. */
const BATCH = 5_000;

const FLAT: Record<string, number> = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
};

/**
 * `postgis.write_staged` (issue 16): a push-down result that main copied back from a temporary
 * table of the server into a staging file (one JSON array per row: fid, the values as the
 * server's text, the geometry as base64 ISO WKB) written as a new GeoPackage layer with the
 * field types main read from the server's catalogue. The values are set as text: GDAL parses
 * them into the field's type (integers, reals and dates exactly). A failure or Stop removes the
 * GeoPackage (main does too).
 */
export async function writeStagedLayer(
  args: CallArgs<'postgis.write_staged'>,
  ctx: Pick<FunctionContext, 'signal' | 'progress'>,
): Promise<{ output: string; featureCount: number }> {
  const staging = path.resolve(args.staging);
  // Only main's own staging files: a file of its temp folder, never a person's data.
  if (path.relative(tmpdir(), staging).startsWith('..') || !staging.endsWith('.ndjson'))
    throw new BadInputError(`${args.staging} is not a staging file of Mapwright`);
  const { path: file, sublayer } = parseSource(args.output);
  if (!sublayer) throw new BadInputError(`The output must be 'path|layername=NAME'; got ${args.output}`);
  if (existsSync(file)) throw new BadInputError(`${file} already exists; outputs are never written over`);
  throwIfCancelled(ctx.signal);

  const srs = args.srs ? srsOf(args.srs) : null;
  const ds = await gdal.drivers.get('GPKG').createAsync(file, 0, 0, 0, gdal.GDT_Unknown);
  let written = 0;
  try {
    const layer = createLayer(ds, sublayer, srs, args);
    const lines = createInterface({ input: createReadStream(staging, 'utf8'), crlfDelay: Infinity });
    sql(ds, 'BEGIN');
    for await (const line of lines) {
      if (!line) continue;
      addRow(layer, JSON.parse(line) as (string | number | null)[], args.fields.length, srs);
      written++;
      if (written % BATCH === 0) {
        sql(ds, 'COMMIT');
        throwIfCancelled(ctx.signal);
        ctx.progress(args.featureCount ? Math.min(0.99, written / args.featureCount) : 0.5, progressText(written, args.featureCount));
        // Lets the event loop take a Stop between batches.
        await new Promise((resolve) => setImmediate(resolve));
        sql(ds, 'BEGIN');
      }
    }
    sql(ds, 'COMMIT');
    throwIfCancelled(ctx.signal);
    await ds.flushAsync();
    const count = layer.features.count();
    if (count !== written) throw new Error(`${count} of ${written} features were written`);
    ctx.progress(1, progressText(written, args.featureCount));
  } catch (err) {
    ds.close();
    await rm(file, { force: true }).catch(() => undefined);
    if (err instanceof BadInputError || err instanceof CancelledError) throw err;
    throw new BadInputError(`The result could not be written to ${path.basename(file)}: ${gdalReason(err, file)}`);
  }
  ds.close();
  return { output: formatSource({ path: file, sublayer }), featureCount: written };
}

/**
 * A transaction statement: GDAL's GeoPackage driver takes BEGIN/COMMIT as its own
 * transaction (one SQLite commit per batch instead of one per feature); gdal-async throws on
 * the empty result set such a statement returns, which is not an error.
 */
function sql(ds: Dataset, statement: 'BEGIN' | 'COMMIT'): void {
  try {
    ds.executeSQL(statement);
  } catch {
    // No result set.
  }
}

function createLayer(ds: Dataset, name: string, srs: SpatialReference | null, args: CallArgs<'postgis.write_staged'>): Layer {
  const table = args.geometryType === null;
  const layer = ds.layers.create(name, table ? null : srs, table ? gdal.wkbNone : geometryTypeOf(args.geometryType!), [
    'FID=fid',
    'GEOMETRY_NAME=geom',
  ]);
  for (const f of args.fields) {
    const def = new gdal.FieldDefn(f.name, f.type);
    if (f.width) def.width = f.width;
    if (f.precision) def.precision = f.precision;
    layer.fields.add(def);
  }
  return layer;
}

function addRow(layer: Layer, row: (string | number | null)[], fieldCount: number, srs: SpatialReference | null): void {
  if (!Array.isArray(row) || row.length !== fieldCount + 2) throw new Error('a staging row does not match its fields');
  const feature = new gdal.Feature(layer);
  feature.fid = Number(row[0]);
  for (let i = 0; i < fieldCount; i++) {
    const v = row[i + 1];
    if (v !== null && v !== undefined) feature.fields.set(i, String(v));
  }
  const wkb = row[fieldCount + 1];
  if (typeof wkb === 'string') feature.setGeometry(gdal.Geometry.fromWKB(Buffer.from(wkb, 'base64'), srs ?? undefined));
  layer.features.add(feature);
}

/** PostGIS typmod name → OGR type: flat names, `…Z` with the 2.5D bit; anything else unknown. */
function geometryTypeOf(name: string): number {
  const z = /Z$/.test(name) && !/ZM$/.test(name);
  const flat = FLAT[z ? name.slice(0, -1) : name];
  if (flat === undefined) return gdal.wkbUnknown;
  return z ? flat | gdal.wkb25DBit : flat;
}

function srsOf(text: string): SpatialReference {
  try {
    return gdal.SpatialReference.fromUserInput(text);
  } catch (err) {
    throw new BadInputError(`The server's CRS could not be read: ${gdalReason(err)}`);
  }
}

const progressText = (n: number, of: number) =>
  `Writing the result: ${n.toLocaleString('en-US')}${of ? ` of ${of.toLocaleString('en-US')}` : ''} features`;

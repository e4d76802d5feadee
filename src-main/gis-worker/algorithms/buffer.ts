import path from 'node:path';
import type { SpatialReference } from 'gdal-async';
import { z } from 'zod';
import { buffer as spec } from '../../../src-shared/processing/vectorAlgorithms.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import type { AlgorithmOutput } from '../protocol.js';
import { selectList } from './fieldNames.js';
import { finishRun, runSingleOn, type Single } from './singleRun.js';
import { fidRange, type SourceLayer, sourceLayer, sourceRow } from './sourceLayer.js';
import { appendInChunks, appendSelect, createOutput, inChunks, inOnePass, OutputWriter, type OutputTarget } from './sqlOutput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import { assumedNote, withVectorInputs } from './workspace.js';

/**
 * GEOS buffer through SpatiaLite's ST_Buffer, run by GDAL straight on the source: a GeoPackage
 * in fid chunks (real progress, Stop between chunks), any other format in one pass through
 * GDAL's SQLite dialect, into one output kept open — the same work as `ogr2ogr -dialect SQLite
 * -sql "SELECT ST_Buffer(…)"`, at its speed (scripts/bench/buffer.ts). Sources SQL cannot read
 * in place (see sourceLayer.ts) are staged in the workspace first.
 */

type Params = { distance: number; segments: number; dissolve: boolean };

export const runBuffer: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.extend({ input: z.string() }).parse(params);
  return withVectorInputs({ input: p.input }, (inputs) => {
    const input = inputs.input!;
    const src = sourceLayer(input);
    return src ? bufferInPlace(src, p, output, ctx) : runSingleOn(input, ctx, {}, (single) => bufferStaged(single, p, output, ctx));
  });
};

function refuseUnbufferable(source: string, hasGeometry: boolean, srs: SpatialReference | null): void {
  const name = path.basename(source);
  if (!hasGeometry) throw new BadInputError(`${name} has no geometry to buffer`);
  if (srs?.isGeographic()) throw new BadInputError(`${name} is in degrees (a geographic CRS); a buffer needs a projected CRS in metres`);
}

function grown(geom: string, p: Params): string {
  return `ST_Multi(ST_Buffer(${geom}, ${Number(p.distance)}, ${Math.round(p.segments)}))`;
}

function skippedNote(empty: number): string[] {
  return empty > 0 ? [`${empty} feature(s) without geometry were skipped`] : [];
}

async function bufferInPlace(src: SourceLayer, p: Params, output: string, ctx: AlgorithmContext): Promise<AlgorithmOutput> {
  const name = path.basename(src.input.path);
  refuseUnbufferable(src.input.path, src.hasGeometry, src.srs);
  ctx.progress(0.02, `Reading ${name}`);
  const range = await fidRange(src);
  throwIfCancelled(ctx.signal);
  const g = `a.${src.geom}`;
  const present = `${g} IS NOT NULL AND NOT ST_IsEmpty(${g})`;
  const from = `FROM ${src.table} AS a WHERE ${present}`;
  const ds = src.input.ds;
  const writer = await OutputWriter.create(output, { srs: src.srs, geometryType: 6, fields: p.dissolve ? [] : src.fields });
  let empty: number | null = null;
  try {
    if (p.dissolve) {
      empty = Number((await sourceRow(src, `SELECT COUNT(*) AS n FROM ${src.table} AS a WHERE ${g} IS NULL OR ST_IsEmpty(${g})`)).n ?? 0);
      await inOnePass(ctx, 0.4, 'Buffering and merging all features', () =>
        writer.append(ds, `SELECT ST_Multi(ST_Union(${grown(g, p)})) AS geom ${from}`),
      );
    } else {
      const select = `SELECT ${[...selectList('a', src.fields), `${grown(g, p)} AS geom`].join(', ')} ${from}`;
      if (src.fid) {
        const fid = `a.${src.fid}`;
        await inChunks(range, (lo, hi) => writer.append(ds, `${select} AND ${fid} BETWEEN ${lo} AND ${hi}`), ctx, {
          from: 0.05,
          to: 0.97,
          verb: 'Buffered',
        });
      } else {
        const what = `Buffering ${range.count.toLocaleString('en-US')} features of ${name} in one pass`;
        await inOnePass(ctx, 0.05, what, () => writer.append(ds, select));
      }
    }
    throwIfCancelled(ctx.signal);
    ctx.progress(0.98, 'Writing the spatial index');
    await writer.close();
  } catch (err) {
    writer.abandon();
    throw err;
  }
  const result = await finishRun(writer.target, ctx, assumedNote({ assumedWgs84: src.assumedWgs84, source: src.input.path }));
  // Every feature with a geometry gives one buffer: the rest had none.
  result.notes.push(...skippedNote(empty ?? range.count - (result.featureCount ?? 0)));
  return result;
}

/** The same SQL on the workspace copy (`a`, geometry `geom`, fid `fid`). */
async function bufferStaged(
  { ws, a }: Single,
  p: Params,
  output: string,
  ctx: AlgorithmContext,
): Promise<{ target: OutputTarget; notes: string[] }> {
  refuseUnbufferable(a.source, a.dimension !== null, a.srs);
  const notes = skippedNote(Number((await ws.row('SELECT COUNT(*) AS n FROM a WHERE geom IS NULL OR ST_IsEmpty(geom)')).n ?? 0));
  if (p.dissolve) {
    const target = await createOutput(output, { srs: a.srs, geometryType: 6, fields: [] });
    ctx.progress(0.4, 'Buffering and merging all features');
    await appendSelect(
      ws,
      target,
      `SELECT ST_Multi(ST_Union(${grown('a.geom', p)})) AS geom FROM a WHERE a.geom IS NOT NULL AND NOT ST_IsEmpty(a.geom)`,
    );
    return { target, notes };
  }
  const target = await createOutput(output, { srs: a.srs, geometryType: 6, fields: a.fields });
  const sql = (lo: number, hi: number): string =>
    `SELECT ${[...selectList('a', a.fields), `${grown('a.geom', p)} AS geom`].join(', ')} FROM a ` +
    `WHERE a.fid BETWEEN ${lo} AND ${hi} AND a.geom IS NOT NULL AND NOT ST_IsEmpty(a.geom)`;
  await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: 'Buffered' });
  return { target, notes };
}

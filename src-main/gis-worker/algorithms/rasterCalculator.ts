import type { Dataset } from 'gdal-async';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { rasterCalculator as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { parseRasterExpression } from '../../../src-shared/processing/rasterExpression.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { BandReader } from './bandReader.js';
import { evaluateBlock } from './rasterCalcEval.js';
import { extentFromGeoTransform } from '../rasterGeoref.js';
import { releaseVsimem, vsimemPath } from '../vsimem.js';
import { GTIFF_CREATION, openRasterInput, type RasterInput } from './rasterInput.js';
import type { AlgorithmRun } from './types.js';

/** Pixels evaluated at once: each band referenced and each operation holds one double per pixel. */
const BLOCK_PIXELS = 1 << 20;

/**
 * The raster calculator: the expression is parsed by the shared grammar (never evaluated as a
 * string) and evaluated strip by strip over typed arrays. Inputs after the first are aligned to the
 * first's grid through GDAL warped VRTs, resampled on read.
 */
export const runRasterCalculator: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const parsed = parseRasterExpression(p.expression);
  if (!parsed.ok) throw new BadInputError(`Invalid expression: ${parsed.error}`);
  const inputs: RasterInput[] = [];
  const aligned: Dataset[] = [];
  /** Per input, the dataset read: the input itself or its VRT on the first raster's grid. */
  const grids: Dataset[] = [];
  /** The warped VRTs live in /vsimem until the run ends. */
  const vrtPaths = new Set<string>();
  const notes: string[] = [];
  try {
    for (const [i, source] of p.inputs.entries()) inputs.push(await openRasterInput(source, `inputs[${i}]`));
    for (const ref of parsed.bands) {
      const input = inputs[ref.raster];
      if (!input) throw new BadInputError(`${ref.name} refers to input ${ref.name[0]}, but only ${inputs.length} input(s) are given`);
      const count = input.ds.bands.count();
      if (ref.band > count) throw new BadInputError(`${ref.name}: ${input.path} (input ${ref.name[0]}) has ${count} band(s)`);
    }
    const first = inputs[0]!.ds;
    const { x: width, y: height } = first.rasterSize;
    for (const [i, input] of inputs.entries()) {
      const grid = i === 0 ? input.ds : await alignTo(first, input, p.method, vrtPaths);
      if (grid !== input.ds) {
        aligned.push(grid);
        notes.push(`Input ${String.fromCharCode(65 + i)} was resampled (${p.method}) onto the first raster’s grid`);
      }
      grids.push(grid);
    }
    const readers = new Map(parsed.bands.map((ref) => [ref.name, new BandReader(grids[ref.raster]!.bands.get(ref.band))]));

    const out = await gdal.drivers.get('GTiff').createAsync(output, width, height, 1, p.data_type, GTIFF_CREATION);
    let invalid = 0;
    try {
      if (first.geoTransform) out.geoTransform = first.geoTransform;
      if (first.srs) out.srs = first.srs;
      const outBand = out.bands.get(1);
      outBand.noDataValue = p.nodata;
      const rows = Math.max(1, Math.min(height, Math.floor(BLOCK_PIXELS / width)));
      for (let y = 0; y < height; y += rows) {
        throwIfCancelled(ctx.signal);
        const h = Math.min(rows, height - y);
        const n = width * h;
        const blocks = new Map<string, Float64Array>();
        const valid = new Uint8Array(n).fill(1);
        for (const [name, reader] of readers) {
          const block = await reader.read(0, y, width, h);
          blocks.set(name, block.values);
          for (let i = 0; i < n; i++) valid[i]! &= block.valid[i]!;
        }
        const result = evaluateBlock(parsed.tree, blocks, n);
        for (let i = 0; i < n; i++) {
          const v = result[i]!;
          if (valid[i] === 0 || !Number.isFinite(v)) {
            result[i] = p.nodata;
            invalid++;
          }
        }
        await outBand.pixels.writeAsync(0, y, width, h, result);
        ctx.progress((y + h) / height, `Calculated ${(y + h).toLocaleString('en-US')} of ${height.toLocaleString('en-US')} rows`);
        await yieldToEvents();
      }
      await outBand.flushAsync();
    } finally {
      out.close();
    }
    notes.unshift(
      `${width} × ${height} pixels; ${invalid.toLocaleString('en-US')} nodata (an input nodata, or a result that is not a finite number)`,
    );
    return { output, featureCount: null, notes };
  } finally {
    for (const d of aligned) d.close();
    for (const v of vrtPaths) releaseVsimem(v);
    for (const r of inputs) r.close();
  }
};

/** The input itself when it already lies on the first raster's grid, else a warped VRT that does. */
async function alignTo(first: Dataset, input: RasterInput, method: string, vrtPaths: Set<string>): Promise<Dataset> {
  const a = first.geoTransform;
  const b = input.ds.geoTransform;
  const sameSize = first.rasterSize.x === input.ds.rasterSize.x && first.rasterSize.y === input.ds.rasterSize.y;
  const sameGt = !!a && !!b && a.every((v, i) => Math.abs(v - b[i]!) <= 1e-9 * Math.max(1, Math.abs(v)));
  const srsA = first.srs;
  const srsB = input.ds.srs;
  const sameSrs = (!srsA && !srsB) || (!!srsA && !!srsB && srsA.isSame(srsB));
  if (sameSize && (sameGt || (!a && !b)) && sameSrs) return input.ds;
  if (!a || !b) throw new BadInputError(`${input.path} and the first input cannot be aligned: one of them has no georeferencing`);
  const extent = extentFromGeoTransform(a, first.rasterSize.x, first.rasterSize.y);
  const args = [
    '-of',
    'VRT',
    '-te',
    ...extent.map(String),
    '-ts',
    String(first.rasterSize.x),
    String(first.rasterSize.y),
    '-r',
    method,
    ...(srsA ? ['-t_srs', srsA.toWKT()] : []),
  ];
  const vrt = vsimemPath('vrt');
  vrtPaths.add(vrt);
  try {
    return await gdal.warpAsync(vrt, null, [input.ds], args);
  } catch (err) {
    throw new BadInputError(`Cannot align ${input.path} to the first input: ${gdalReason(err, input.path)}`);
  }
}

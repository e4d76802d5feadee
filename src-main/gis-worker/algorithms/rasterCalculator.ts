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

    const nodata = storedNodata(p.data_type, p.nodata);
    const out = await gdal.drivers.get('GTiff').createAsync(output, width, height, 1, p.data_type, GTIFF_CREATION);
    /** Pixels made nodata here: an input was nodata or the result was not a finite number. */
    let invalid = 0;
    /** Nodata pixels of the file as written: also valid results that became the nodata value once converted. */
    let written = 0;
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
        // Counted on what GDAL stored (rounded, clamped to the type), from its block cache: a
        // result of 0 in a Byte output with nodata 0 is nodata in the file, and so in the note.
        const stored = (await outBand.pixels.readAsync(0, y, width, h, undefined, { data_type: gdal.GDT_Float64 })) as Float64Array;
        for (let i = 0; i < n; i++) if (stored[i] === nodata) written++;
        ctx.progress((y + h) / height, `Calculated ${(y + h).toLocaleString('en-US')} of ${height.toLocaleString('en-US')} rows`);
        await yieldToEvents();
      }
      await outBand.flushAsync();
    } finally {
      out.close();
    }
    notes.unshift(nodataNote(width, height, written, invalid, p));
    return { output, featureCount: null, notes };
  } finally {
    for (const d of aligned) d.close();
    for (const v of vrtPaths) releaseVsimem(v);
    for (const r of inputs) r.close();
  }
};

/**
 * The note on nodata, its count that of the written file. Results that equal the nodata value
 * once stored in the output type (0 or less in a Byte output with nodata 0) are nodata too: said
 * apart, since they are data lost to the choice of nodata value.
 */
function nodataNote(width: number, height: number, written: number, invalid: number, p: { data_type: string; nodata: number }): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const head = `${width} × ${height} pixels; ${fmt(written)} nodata`;
  const collided = written - invalid;
  if (collided <= 0) return `${head} (an input nodata, or a result that is not a finite number)`;
  return (
    `${head}: ${fmt(invalid)} where an input was nodata or the result not a finite number, and ${fmt(collided)} whose result ` +
    `equals the nodata value ${p.nodata} once stored as ${p.data_type} — choose another nodata value (or data_type) to keep them`
  );
}

const INTEGER_RANGES: Record<string, readonly [number, number]> = {
  Byte: [0, 255],
  Int16: [-32768, 32767],
  UInt16: [0, 65535],
  Int32: [-2147483648, 2147483647],
};

/**
 * The nodata value as the output type stores it, so written pixels can be compared with it.
 * A value the type cannot hold (the default -9999 in a Byte output) would leave every nodata
 * pixel a valid clamped value: refused, with the values that work.
 */
function storedNodata(dataType: string, nodata: number): number {
  const range = INTEGER_RANGES[dataType];
  if (range && (!Number.isInteger(nodata) || nodata < range[0] || nodata > range[1]))
    throw new BadInputError(
      `nodata ${nodata} cannot be stored in a ${dataType} output (integers ${range[0]}–${range[1]}): give nodata within that range, e.g. ${range[0]} or ${range[1]}`,
    );
  if (dataType === 'Float32') {
    const f = Math.fround(nodata);
    if (!Number.isFinite(f)) throw new BadInputError(`nodata ${nodata} cannot be stored in a Float32 output`);
    return f;
  }
  return nodata;
}

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

import type { Dataset, RasterBand } from 'gdal-async';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { layerSrs } from '../layerSrs.js';
import { openSource, type OpenedRaster } from '../openSource.js';
import type { ProgressFn } from '../progressThrottle.js';
import { rasterGeoref } from '../rasterGeoref.js';
import { releaseVsimem, vsimemPath } from '../vsimem.js';
import { jsonFieldValue } from './fieldValues.js';
import { inverseGeoTransform } from './sampleRaster.js';

export interface StatsArgs {
  source: string;
  bands: number[] | null;
  /** A polygon source: statistics per polygon instead of for the whole raster. */
  zones: string | null;
  zone_field: string | null;
  max_zones: number;
  all_touched: boolean;
}

export interface Stats {
  /** Valid pixels (not nodata, not masked). */
  count: number;
  /** Pixels left out as nodata or masked. */
  nodata_count: number;
  sum: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
  std_dev: number | null;
}

/** Pixels read per chunk: bounded memory on big rasters, and a cancel check between chunks. */
const CHUNK_PIXELS = 1 << 20;
const GMF_ALL_VALID = 0x01;

class Accumulator {
  count = 0;
  nodata = 0;
  sum = 0;
  sumSq = 0;
  min = Infinity;
  max = -Infinity;

  add(values: Float64Array, valid: (i: number) => boolean): void {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (!valid(i) || !Number.isFinite(v)) {
        this.nodata++;
        continue;
      }
      this.count++;
      this.sum += v;
      this.sumSq += v * v;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
    }
  }

  result(): Stats {
    if (this.count === 0) return { count: 0, nodata_count: this.nodata, sum: null, mean: null, min: null, max: null, std_dev: null };
    const mean = this.sum / this.count;
    // Population standard deviation, as gdalinfo -stats reports it.
    const variance = Math.max(0, this.sumSq / this.count - mean * mean);
    return {
      count: this.count,
      nodata_count: this.nodata,
      sum: this.sum,
      mean,
      min: this.min,
      max: this.max,
      std_dev: Math.sqrt(variance),
    };
  }
}

interface Window {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Reads a window of a band as Float64 with its validity (nodata value, mask band). */
async function readWindow(band: RasterBand, win: Window, path: string): Promise<{ values: Float64Array; valid: (i: number) => boolean }> {
  try {
    const values = (await band.pixels.readAsync(win.x, win.y, win.w, win.h, undefined, { data_type: gdal.GDT_Float64 })) as Float64Array;
    const nodata = await band.noDataValueAsync;
    const flags = band.getMaskFlags();
    if (flags & GMF_ALL_VALID) return { values, valid: () => true };
    const maskBand = band.getMaskBand();
    if (!maskBand) return { values, valid: (i) => !(typeof nodata === 'number' && values[i] === nodata) };
    const mask = (await maskBand.pixels.readAsync(win.x, win.y, win.w, win.h, undefined, { data_type: gdal.GDT_Byte })) as Uint8Array;
    return { values, valid: (i) => mask[i] !== 0 && !(typeof nodata === 'number' && values[i] === nodata) };
  } catch (err) {
    throw new BadInputError(`Cannot read the pixels of ${path} (band ${band.id}): ${gdalReason(err, path)}`);
  }
}

function checkBands(count: number, bands: number[] | null, path: string): number[] {
  const list = bands ?? Array.from({ length: count }, (_, i) => i + 1);
  const bad = list.filter((b) => b < 1 || b > count);
  if (bad.length) throw new BadInputError(`${path} has ${count} band(s); there is no band ${bad.join(', ')}`);
  return list;
}

/**
 * Exact statistics of raster bands — count of valid pixels, sum, mean, min, max, standard
 * deviation — over the whole raster, or per polygon of a zones layer (a pixel belongs to a
 * polygon when its centre lies inside, as gdal_rasterize decides; `all_touched` takes every
 * pixel the polygon touches). Overlapping polygons each get their own pixels.
 */
export async function rasterStats(args: StatsArgs, signal: AbortSignal, progress: ProgressFn): Promise<Record<string, unknown>> {
  const opened = await openSource(args.source);
  try {
    if (opened.kind !== 'raster') throw new BadInputError(`${opened.path} is a vector layer; raster statistics need a raster`);
    const count = await opened.ds.bands.countAsync();
    const bands = checkBands(count, args.bands, opened.path);
    if (!args.zones) return { bands: await wholeRaster(opened, bands, signal, progress) };
    return await perZone(opened, bands, args, signal, progress);
  } finally {
    opened.ds.close();
  }
}

async function wholeRaster(opened: OpenedRaster, bands: number[], signal: AbortSignal, progress: ProgressFn) {
  const size = await opened.ds.rasterSizeAsync;
  const rowsPerChunk = Math.max(1, Math.floor(CHUNK_PIXELS / size.x));
  const out: (Stats & { band: number })[] = [];
  for (const [k, b] of bands.entries()) {
    const band = await opened.ds.bands.getAsync(b);
    const acc = new Accumulator();
    for (let y = 0; y < size.y; y += rowsPerChunk) {
      throwIfCancelled(signal);
      const h = Math.min(rowsPerChunk, size.y - y);
      const { values, valid } = await readWindow(band, { x: 0, y, w: size.x, h }, opened.path);
      acc.add(values, valid);
      progress((k + (y + h) / size.y) / bands.length, `Band ${b}`);
    }
    out.push({ band: b, ...acc.result() });
  }
  return out;
}

async function perZone(opened: OpenedRaster, bands: number[], args: StatsArgs, signal: AbortSignal, progress: ProgressFn) {
  const georef = await rasterGeoref(opened.ds);
  const gt = await opened.ds.geoTransformAsync;
  const toPixel = gt ? inverseGeoTransform(gt) : null;
  if (!gt || !toPixel || !georef.srs)
    throw new BadInputError(`${opened.path} has no georeferencing or CRS: polygons cannot be placed on it`);

  const zones = await openSource(args.zones!);
  const tmp = vsimemPath('gpkg');
  let reprojected: Dataset | null = null;
  try {
    if (zones.kind !== 'vector') throw new BadInputError(`The zones must be a polygon layer; ${zones.path} is a raster`);
    const zoneSrs = await layerSrs(zones.ds, zones.layer.name);
    if (!zoneSrs) throw new BadInputError(`The zones layer ${zones.path} has no CRS, so its polygons cannot be placed on the raster`);
    const names: string[] = [];
    zones.layer.fields.forEach((f) => {
      names.push(f.name);
    });
    if (args.zone_field && !names.includes(args.zone_field)) {
      throw new BadInputError(`No field '${args.zone_field}' in the zones layer; its fields are: ${names.join(', ')}`);
    }
    // GDAL reprojects the polygons into the raster's CRS once; each polygon is then burnt alone.
    reprojected = await gdal.vectorTranslateAsync(tmp, zones.ds, [
      '-f',
      'GPKG',
      '-t_srs',
      georef.srs.toWKT(),
      '-nln',
      'zones',
      '-nlt',
      'PROMOTE_TO_MULTI',
      zones.layer.name,
    ]);
    const layer = reprojected.layers.get('zones');
    const total = await layer.features.countAsync(true);
    const bandObjs = await Promise.all(bands.map((b) => opened.ds.bands.getAsync(b)));
    // Read the zones first: rasterize filters the same layer, which would reset this reading.
    const list: { fid: number; zone: unknown; win: Window | null }[] = [];
    for (let f = await layer.features.firstAsync(); f && list.length < args.max_zones; f = await layer.features.nextAsync()) {
      const geom = f.getGeometry();
      list.push({
        fid: f.fid,
        zone: args.zone_field ? jsonFieldValue(f.fields.get(args.zone_field)) : f.fid,
        win: geom ? pixelWindow(geom.getEnvelope(), toPixel, georef.width, georef.height) : null,
      });
    }
    const results: Record<string, unknown>[] = [];
    for (const [index, z] of list.entries()) {
      throwIfCancelled(signal);
      const stats = z.win
        ? await zoneStats(opened, reprojected, z.fid, z.win, gt, bandObjs, args.all_touched)
        : bands.map(() => new Accumulator().result());
      results.push({ zone: z.zone, fid: z.fid, ...Object.fromEntries(bands.map((b, i) => [`band_${b}`, stats[i]])) });
      progress((index + 1) / Math.max(1, list.length), `Zone ${index + 1} of ${list.length}`);
    }
    return {
      zone_field: args.zone_field ?? 'fid',
      zone_count: total,
      returned: results.length,
      truncated: results.length < total,
      zones: results,
    };
  } finally {
    reprojected?.close();
    releaseVsimem(tmp);
    zones.ds.close();
  }
}

function pixelWindow(
  env: { minX: number; minY: number; maxX: number; maxY: number },
  toPixel: (x: number, y: number) => [number, number],
  width: number,
  height: number,
): Window | null {
  const corners = [toPixel(env.minX, env.minY), toPixel(env.maxX, env.minY), toPixel(env.minX, env.maxY), toPixel(env.maxX, env.maxY)];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const x1 = Math.min(width, Math.ceil(Math.max(...xs)));
  const y1 = Math.min(height, Math.ceil(Math.max(...ys)));
  if (x1 <= x0 || y1 <= y0) return null;
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Burns one polygon into a mask the size of its window, then reads the bands there. */
async function zoneStats(
  opened: OpenedRaster,
  zonesDs: Dataset,
  fid: number,
  win: Window,
  gt: number[],
  bands: RasterBand[],
  allTouched: boolean,
): Promise<Stats[]> {
  const mem = await gdal.drivers.get('MEM').createAsync('', win.w, win.h, 1, gdal.GDT_Byte);
  try {
    mem.geoTransform = [gt[0]! + win.x * gt[1]! + win.y * gt[2]!, gt[1]!, gt[2]!, gt[3]! + win.x * gt[4]! + win.y * gt[5]!, gt[4]!, gt[5]!];
    const burnArgs = ['-burn', '1', '-l', 'zones', '-where', `fid = ${fid}`];
    if (allTouched) burnArgs.push('-at');
    await gdal.rasterizeAsync(mem, zonesDs, burnArgs);
    const inside = (await (await mem.bands.getAsync(1)).pixels.readAsync(0, 0, win.w, win.h)) as Uint8Array;
    const out: Stats[] = [];
    for (const band of bands) {
      const { values, valid } = await readWindow(band, win, opened.path);
      const acc = new Accumulator();
      // Only pixels inside the polygon count, valid or not.
      const picked: number[] = [];
      for (let i = 0; i < inside.length; i++) if (inside[i]) picked.push(i);
      acc.add(
        Float64Array.from(picked, (i) => values[i]!),
        (k) => valid(picked[k]!),
      );
      out.push(acc.result());
    }
    return out;
  } finally {
    mem.close();
  }
}

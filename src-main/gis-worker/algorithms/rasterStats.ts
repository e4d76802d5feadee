import type { Dataset, Geometry, Layer, RasterBand } from 'gdal-async';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { BandReader } from './bandReader.js';

/** Statistics of the valid pixels (not nodata, not masked, not NaN) of one band. */
export interface PixelStats {
  count: number;
  sum: number;
  mean: number | null;
  min: number | null;
  max: number | null;
}

interface Window {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Pixels read at once; a window is processed in strips of rows of about this many pixels. */
const CHUNK_PIXELS = 4_000_000;

/**
 * Pixel statistics of a band inside polygons, by the rule of gdalwarp -cutline and gdal_rasterize:
 * a pixel counts when its centre is inside a polygon (or, with allTouched, when a polygon touches
 * it). Polygons must be in the raster's CRS (the caller reprojects them); the raster must be
 * north-up. GDAL's rasterizer draws each zone into a mask, strip by strip of its window.
 */
export class ZoneStatistics {
  private readonly zones: Dataset;
  private readonly layer: Layer;
  private readonly gt: number[];
  private readonly width: number;
  private readonly height: number;
  private readonly reader: BandReader;

  constructor(
    band: RasterBand,
    raster: Dataset,
    private readonly opts: { allTouched?: boolean; signal?: AbortSignal } = {},
  ) {
    this.zones = gdal.drivers.get('Memory').create('');
    this.layer = this.zones.layers.create('zone', null, gdal.wkbUnknown);
    this.gt = raster.geoTransform ?? [0, 1, 0, 0, 0, 1];
    this.width = raster.rasterSize.x;
    this.height = raster.rasterSize.y;
    this.reader = new BandReader(band);
  }

  close(): void {
    this.zones.close();
  }

  /** Statistics of the pixels inside these polygons (their union: a pixel counts once). */
  async within(polygons: Geometry[]): Promise<PixelStats> {
    const acc = new Accumulator();
    const window = this.windowOf(polygons);
    if (!window) return acc.result();
    for (const fid of this.layer.features.map((f) => f.fid)) this.layer.features.remove(fid);
    for (const g of polygons) {
      const f = new gdal.Feature(this.layer);
      f.setGeometry(g);
      this.layer.features.add(f);
    }
    await this.scan(window, acc);
    return acc.result();
  }

  /** The pixel window covering the polygons' envelope (plus one pixel), clamped to the raster. */
  private windowOf(polygons: Geometry[]): Window | null {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const g of polygons) {
      if (g.isEmpty()) continue;
      const e = g.getEnvelope();
      minX = Math.min(minX, e.minX);
      minY = Math.min(minY, e.minY);
      maxX = Math.max(maxX, e.maxX);
      maxY = Math.max(maxY, e.maxY);
    }
    if (!Number.isFinite(minX)) return null;
    const [x0, dx, , y0, , dy] = this.gt as [number, number, number, number, number, number];
    const cols = [(minX - x0) / dx, (maxX - x0) / dx];
    const rows = [(minY - y0) / dy, (maxY - y0) / dy];
    const c0 = Math.max(0, Math.floor(Math.min(...cols)) - 1);
    const c1 = Math.min(this.width, Math.ceil(Math.max(...cols)) + 1);
    const r0 = Math.max(0, Math.floor(Math.min(...rows)) - 1);
    const r1 = Math.min(this.height, Math.ceil(Math.max(...rows)) + 1);
    if (c0 >= c1 || r0 >= r1) return null;
    return { x: c0, y: r0, w: c1 - c0, h: r1 - r0 };
  }

  private async scan(window: Window, acc: Accumulator): Promise<void> {
    const rowsPerChunk = Math.max(1, Math.floor(CHUNK_PIXELS / window.w));
    for (let r = 0; r < window.h; r += rowsPerChunk) {
      throwIfCancelled(this.opts.signal);
      const h = Math.min(rowsPerChunk, window.h - r);
      const y = window.y + r;
      const { values, valid } = await this.reader.read(window.x, y, window.w, h);
      const inside = await this.rasterizeZone(window.x, y, window.w, h);
      acc.add(values, valid, inside);
      // Lets a cancel message in between strips of a large window.
      if (window.h > rowsPerChunk) await yieldToEvents();
    }
  }

  /** GDAL's rasterizer burns the zone layer into a Byte mask aligned with the raster window. */
  private async rasterizeZone(x: number, y: number, w: number, h: number): Promise<Uint8Array> {
    const [x0, dx, rx, y0, ry, dy] = this.gt as [number, number, number, number, number, number];
    const mask = await gdal.drivers.get('MEM').createAsync('', w, h, 1, gdal.GDT_Byte);
    try {
      mask.geoTransform = [x0 + x * dx + y * rx, dx, rx, y0 + x * ry + y * dy, ry, dy];
      await gdal.rasterizeAsync(mask, this.zones, ['-burn', '1', '-l', 'zone', ...(this.opts.allTouched ? ['-at'] : [])]);
      return (await mask.bands.get(1).pixels.readAsync(0, 0, w, h)) as Uint8Array;
    } finally {
      mask.close();
    }
  }
}

class Accumulator {
  private count = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;

  add(values: Float64Array, valid: Uint8Array, inside: Uint8Array): void {
    let { count, sum, min, max } = this;
    for (let i = 0; i < values.length; i++) {
      if (valid[i] === 0 || inside[i] === 0) continue;
      const v = values[i]!;
      count++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    Object.assign(this, { count, sum, min, max });
  }

  result(): PixelStats {
    if (this.count === 0) return { count: 0, sum: 0, mean: null, min: null, max: null };
    return { count: this.count, sum: this.sum, mean: this.sum / this.count, min: this.min, max: this.max };
  }
}

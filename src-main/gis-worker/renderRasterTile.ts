import type { SpatialReference } from 'gdal-async';
import { rampLut } from '../../src-shared/style/colourRamps.js';
import { CUMULATIVE_CUT, rasterStyleBands, type RasterStyle, type RgbChannel } from '../../src-shared/style/styleModel.js';
import { encodeGreyAlphaPng, encodeRgbaPng } from './encodePng.js';
import { BadInputError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import type { RasterCache, RasterEntry, RasterReader } from './rasterCache.js';
import { stretchToGrey } from './stretch.js';
import { pseudocolour, rgbComposite, type Channel } from './style/colourise.js';
import { hillshadeTile } from './style/hillshade.js';
import { intersects, tileBounds } from './tileMath.js';

export const TILE_SIZE = 256;

export interface TileRequest {
  source: string;
  z: number;
  x: number;
  y: number;
  style: RasterStyle;
}

type Bounds = [number, number, number, number];

let webMercator: SpatialReference | null = null;

/**
 * One styled 256×256 XYZ tile as PNG bytes, or null when the tile shows nothing of the
 * raster (outside its extent, or only nodata there). Grey and hillshade tiles are grey +
 * alpha; pseudocolour and RGB tiles are RGBA. Nodata is always transparent.
 */
export async function renderRasterTile(cache: RasterCache, req: TileRequest, signal?: AbortSignal): Promise<Buffer | null> {
  return cache.use(req.source, async (entry) => {
    if (!entry.extent3857) {
      throw new BadInputError(
        `${entry.path} has no georeferencing (no coordinate reference system or no geotransform), so it cannot be drawn on the map`,
      );
    }
    for (const band of rasterStyleBands(req.style)) {
      if (band > entry.bandCount) {
        throw new BadInputError(`${entry.path} has ${entry.bandCount} band${entry.bandCount === 1 ? '' : 's'}; there is no band ${band}`);
      }
    }
    const bounds = tileBounds(req.z, req.x, req.y);
    if (!bounds || !intersects(bounds, entry.extent3857)) return null;
    switch (req.style.type) {
      case 'grey':
        return renderGrey(entry, req.style, bounds, signal);
      case 'pseudocolor':
        return renderPseudocolour(entry, req.style, bounds, signal);
      case 'hillshade':
        return renderHillshade(entry, req.style, bounds, signal);
      case 'rgb':
        return renderRgb(entry, req.style, bounds, signal);
    }
  });
}

async function renderGrey(
  entry: RasterEntry,
  style: Extract<RasterStyle, { type: 'grey' }>,
  bounds: Bounds,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  // The style's own range where given; otherwise the band's, so all tiles stretch alike.
  let { min, max } = style;
  if (min === null || max === null) {
    const range = await entry.bandRange(style.band);
    min ??= range.min;
    max ??= range.max;
  }
  if (min === null || max === null) return null; // all nodata: nothing to draw
  throwIfCancelled(signal);
  const warped = await warpBands(entry, [style.band], bounds, TILE_SIZE, signal);
  throwIfCancelled(signal);
  const { grey, alpha, visible } = stretchToGrey(warped.bands[0]!, warped.alpha, min, max);
  if (visible === 0) return null;
  return encodeGreyAlphaPng(grey, alpha, TILE_SIZE, TILE_SIZE);
}

/** The range a channel is stretched over: its own numbers, else the band's 2–98 % cut. */
async function channelRange(
  entry: RasterEntry,
  ch: Pick<RgbChannel, 'band' | 'min' | 'max'>,
): Promise<{ min: number; max: number } | null> {
  if (ch.min !== null && ch.max !== null) return { min: ch.min, max: ch.max };
  const cut = await entry.bandCut(ch.band, CUMULATIVE_CUT[0], CUMULATIVE_CUT[1]);
  if (!cut) return null;
  return { min: ch.min ?? cut.min, max: ch.max ?? cut.max };
}

async function renderPseudocolour(
  entry: RasterEntry,
  style: Extract<RasterStyle, { type: 'pseudocolor' }>,
  bounds: Bounds,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  const range = await channelRange(entry, style);
  if (!range) return null;
  throwIfCancelled(signal);
  const warped = await warpBands(entry, [style.band], bounds, TILE_SIZE, signal);
  throwIfCancelled(signal);
  const { rgba, visible } = pseudocolour(warped.bands[0]!, warped.alpha, range.min, range.max, rampLut(style.ramp, style.invert));
  if (visible === 0) return null;
  return encodeRgbaPng(rgba, TILE_SIZE, TILE_SIZE);
}

async function renderRgb(
  entry: RasterEntry,
  style: Extract<RasterStyle, { type: 'rgb' }>,
  bounds: Bounds,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  const channels = [style.red, style.green, style.blue] as const;
  const ranges = await Promise.all(channels.map((ch) => channelRange(entry, ch)));
  if (ranges.some((r) => r === null)) return null;
  throwIfCancelled(signal);
  const warped = await warpBands(
    entry,
    channels.map((c) => c.band),
    bounds,
    TILE_SIZE,
    signal,
  );
  throwIfCancelled(signal);
  const input = warped.bands.map((values, i): Channel => ({ values, ...ranges[i]! })) as unknown as [Channel, Channel, Channel];
  const { rgba, visible } = rgbComposite(input, warped.alpha);
  if (visible === 0) return null;
  return encodeRgbaPng(rgba, TILE_SIZE, TILE_SIZE);
}

/**
 * Elevations are warped onto the tile grid plus a one-pixel border, so the slope at the
 * tile's edge pixels sees the same neighbours the adjacent tile does: no seams.
 */
async function renderHillshade(
  entry: RasterEntry,
  style: Extract<RasterStyle, { type: 'hillshade' }>,
  bounds: Bounds,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  const res = (bounds[2] - bounds[0]) / TILE_SIZE;
  const padded: Bounds = [bounds[0] - res, bounds[1] - res, bounds[2] + res, bounds[3] + res];
  const warped = await warpBands(entry, [style.band], padded, TILE_SIZE + 2, signal, 'bilinear');
  throwIfCancelled(signal);
  const { grey, alpha, visible } = hillshadeTile(
    { values: warped.bands[0]!, validity: warped.alpha, size: TILE_SIZE, top: padded[3], res },
    { azimuth: style.azimuth, altitude: style.altitude, zFactor: style.zFactor },
  );
  if (visible === 0) return null;
  return encodeGreyAlphaPng(grey, alpha, TILE_SIZE, TILE_SIZE);
}

/**
 * The bands warped onto a size×size Web Mercator grid over `bounds`, with the warper's
 * validity mask (0 = no data). Zoomed out, a large raster is read from its cached overview
 * level (built first if missing); the work runs on one of the entry's readers.
 */
export async function warpBands(
  entry: RasterEntry,
  bands: readonly number[],
  bounds: Bounds,
  size: number,
  signal?: AbortSignal,
  resampling?: 'bilinear' | 'near',
): Promise<{ bands: Float64Array[]; alpha: Float64Array }> {
  const factor = await entry.levelFor((bounds[2] - bounds[0]) / size, signal);
  throwIfCancelled(signal);
  return entry.withReader((reader) => warpWith(reader, entry.path, bands, factor, bounds, size, resampling));
}

/** Caller holds the reader's `exclusive`. */
async function warpWith(
  reader: RasterReader,
  label: string,
  bands: readonly number[],
  factor: number,
  bounds: Bounds,
  size: number,
  resampling?: 'bilinear' | 'near',
): Promise<{ bands: Float64Array[]; alpha: Float64Array }> {
  const view = await reader.view(bands, factor);
  // Classes (palette rasters) must not be blended; continuous values may.
  const method = resampling ?? ((await reader.isCategorical(bands, factor)) ? 'near' : 'bilinear');
  // Float64 holds any source type exactly; the last band receives the warper's validity mask.
  const n = bands.length;
  const dst = await gdal.drivers.get('MEM').createAsync('', size, size, n + 1, 'Float64');
  try {
    webMercator ??= gdal.SpatialReference.fromEPSG(3857);
    dst.srs = webMercator;
    const res = (bounds[2] - bounds[0]) / size;
    dst.geoTransform = [bounds[0], res, 0, bounds[3], 0, -res];
    dst.bands.get(n + 1).colorInterpretation = 'Alpha';
    try {
      // The gdalwarp utility (not the bare warper) so that a source's own overviews are used when zoomed out.
      await gdal.warpAsync(null, dst, [view], ['-r', method, '-dstalpha']);
    } catch (err) {
      throw new BadInputError(`Cannot read the pixels of ${label}: ${gdalReason(err, label)}`);
    }
    const out: Float64Array[] = [];
    for (let b = 1; b <= n; b++) {
      const values = new Float64Array(size * size);
      await dst.bands.get(b).pixels.readAsync(0, 0, size, size, values);
      out.push(values);
    }
    const alpha = new Float64Array(size * size);
    await dst.bands.get(n + 1).pixels.readAsync(0, 0, size, size, alpha);
    return { bands: out, alpha };
  } finally {
    dst.close();
  }
}

import type { SpatialReference } from 'gdal-async';
import type { GreyRasterStyle } from '../../src-shared/style/styleModel.js';
import { encodeGreyAlphaPng } from './encodePng.js';
import { BadInputError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import type { RasterCache, RasterEntry } from './rasterCache.js';
import { stretchToGrey } from './stretch.js';
import { intersects, tileBounds } from './tileMath.js';

export const TILE_SIZE = 256;

export interface TileRequest {
  source: string;
  z: number;
  x: number;
  y: number;
  style: GreyRasterStyle;
}

let webMercator: SpatialReference | null = null;

/**
 * One styled 256×256 XYZ tile as PNG bytes (grey + alpha), or null when the tile shows
 * nothing of the raster (outside its extent, or only nodata there).
 */
export async function renderRasterTile(cache: RasterCache, req: TileRequest, signal?: AbortSignal): Promise<Buffer | null> {
  return cache.use(req.source, async (entry) => {
    if (!entry.extent3857) {
      throw new BadInputError(
        `${entry.path} has no georeferencing (no coordinate reference system or no geotransform), so it cannot be drawn on the map`,
      );
    }
    const { band } = req.style;
    if (band > entry.bandCount) {
      throw new BadInputError(
        `${entry.path} has ${entry.bandCount} band${entry.bandCount === 1 ? '' : 's'}; there is no band ${band}`,
      );
    }
    const bounds = tileBounds(req.z, req.x, req.y);
    if (!bounds || !intersects(bounds, entry.extent3857)) return null;

    const { min, max } = await stretchRange(entry, req.style);
    if (min === null || max === null) return null; // all nodata: nothing to draw
    throwIfCancelled(signal);

    const pixels = await entry.exclusive(() => warpBand(entry, band, bounds));
    throwIfCancelled(signal);
    const { grey, alpha, visible } = stretchToGrey(pixels.values, pixels.alpha, min, max);
    if (visible === 0) return null;
    return encodeGreyAlphaPng(grey, alpha, TILE_SIZE, TILE_SIZE);
  });
}

/** The style's own range where given; otherwise the band's, so all tiles stretch alike. */
async function stretchRange(entry: RasterEntry, style: GreyRasterStyle): Promise<{ min: number | null; max: number | null }> {
  if (style.min !== null && style.max !== null) return { min: style.min, max: style.max };
  const range = await entry.bandRange(style.band);
  return { min: style.min ?? range.min, max: style.max ?? range.max };
}

/** Caller holds entry.exclusive. */
async function warpBand(
  entry: RasterEntry,
  band: number,
  bounds: [number, number, number, number],
): Promise<{ values: Float64Array; alpha: Float64Array }> {
  const view = await entry.bandView(band);
  const categorical = (await (await view.bands.getAsync(1)).colorInterpretationAsync) === 'Palette';
  // Float64 holds any source type exactly; band 2 receives the warper's validity mask.
  const dst = await gdal.drivers.get('MEM').createAsync('', TILE_SIZE, TILE_SIZE, 2, 'Float64');
  try {
    webMercator ??= gdal.SpatialReference.fromEPSG(3857);
    dst.srs = webMercator;
    const res = (bounds[2] - bounds[0]) / TILE_SIZE;
    dst.geoTransform = [bounds[0], res, 0, bounds[3], 0, -res];
    dst.bands.get(2).colorInterpretation = 'Alpha';
    try {
      // The gdalwarp utility (not the bare warper) so that overviews are used when zoomed out.
      // Classes (palette rasters) must not be blended; continuous values may.
      await gdal.warpAsync(null, dst, [view], ['-r', categorical ? 'near' : 'bilinear', '-dstalpha']);
    } catch (err) {
      throw new BadInputError(`Cannot read the pixels of ${entry.path}: ${gdalReason(err, entry.path)}`);
    }
    const values = new Float64Array(TILE_SIZE * TILE_SIZE);
    const alpha = new Float64Array(TILE_SIZE * TILE_SIZE);
    await dst.bands.get(1).pixels.readAsync(0, 0, TILE_SIZE, TILE_SIZE, values);
    await dst.bands.get(2).pixels.readAsync(0, 0, TILE_SIZE, TILE_SIZE, alpha);
    return { values, alpha };
  } finally {
    dst.close();
  }
}


import { encodeRgbaPng } from './encodePng.js';
import { BadInputError, throwIfCancelled } from './errors.js';
import type { RasterCache } from './rasterCache.js';
import { TILE_SIZE, warpBands } from './renderRasterTile.js';
import { encodeTerrarium } from './style/terrarium.js';
import { intersects, tileBounds } from './tileMath.js';

export interface DemTileRequest {
  source: string;
  z: number;
  x: number;
  y: number;
  band: number;
  /** Height given to nodata and to the ground beyond the raster (the DEM's lowest, from its statistics). */
  ground?: number;
}

/**
 * One 256×256 Web Mercator tile of elevations, Terrarium-encoded (style/terrarium.ts), for
 * MapLibre's raster-dem source. Always a whole tile, never null: MapLibre needs a square image
 * for every tile it asks for, and nodata and the ground beyond the raster lie at `ground`. Heights are
 * resampled bilinearly — nearest-neighbour steps would show as terraces in 3D.
 */
export async function renderDemTile(cache: RasterCache, req: DemTileRequest, signal?: AbortSignal): Promise<Buffer> {
  return cache.use(req.source, async (entry) => {
    if (!entry.extent3857) {
      throw new BadInputError(`${entry.path} has no georeferencing, so it cannot be used as terrain`);
    }
    if (req.band > entry.bandCount) throw new BadInputError(`${entry.path} has no band ${req.band}`);
    const bounds = tileBounds(req.z, req.x, req.y);
    if (!bounds) throw new BadInputError(`tile ${req.z}/${req.x}/${req.y} is outside the grid`);
    const pixels = TILE_SIZE * TILE_SIZE;
    if (!intersects(bounds, entry.extent3857)) {
      return encodeRgbaPng(encodeTerrarium(new Float64Array(pixels), new Float64Array(pixels), req.ground), TILE_SIZE, TILE_SIZE);
    }
    const warped = await warpBands(entry, [req.band], bounds, TILE_SIZE, signal, 'bilinear');
    throwIfCancelled(signal);
    return encodeRgbaPng(encodeTerrarium(warped.bands[0]!, warped.alpha, req.ground), TILE_SIZE, TILE_SIZE);
  });
}

/**
 * Shaded relief of one Web Mercator tile, from elevations warped onto the tile's grid with a
 * one-pixel border (so every tile pixel has its eight neighbours and adjacent tiles join
 * without seams). Horn's slope and the hillshade formula of gdaldem, with the output scaled
 * like gdaldem's: 1 (in shadow) … 255 (facing the light).
 */

const EARTH_RADIUS = 6378137;

export interface HillshadeParams {
  azimuth: number;
  altitude: number;
  zFactor: number;
}

export interface ElevationGrid {
  /** (size + 2)² elevations, row-major, north first. */
  values: ArrayLike<number>;
  /** Validity per pixel (> 0 = data), same layout. */
  validity: ArrayLike<number>;
  /** Output size in pixels (the grid is two more each way). */
  size: number;
  /** Web Mercator y of the grid's top edge (the border row's top), metres. */
  top: number;
  /** Pixel size in Web Mercator metres. */
  res: number;
}

/**
 * Grey (1…255) and alpha per output pixel. A pixel without data is transparent; a missing
 * neighbour (the raster's edge, a nodata hole) takes the centre's elevation, so edges are
 * shaded as if flat outward rather than dropped.
 */
export function hillshadeTile(grid: ElevationGrid, p: HillshadeParams): { grey: Uint8Array; alpha: Uint8Array; visible: number } {
  const { size, values, validity } = grid;
  const stride = size + 2;
  const grey = new Uint8Array(size * size);
  const alpha = new Uint8Array(size * size);
  const zenith = ((90 - p.altitude) * Math.PI) / 180;
  // Compass azimuth (clockwise from north) → mathematical angle (counter-clockwise from east).
  let azMath = 360 - p.azimuth + 90;
  if (azMath >= 360) azMath -= 360;
  const azimuth = (azMath * Math.PI) / 180;
  const cosZenith = Math.cos(zenith);
  const sinZenith = Math.sin(zenith);
  let visible = 0;

  for (let r = 0; r < size; r++) {
    // Web Mercator stretches distances by 1 / cos(latitude): the ground size of a pixel here.
    const y = grid.top - (r + 1.5) * grid.res;
    const lat = Math.atan(Math.sinh(y / EARTH_RADIUS));
    const ground = grid.res * Math.cos(lat);
    const scale = p.zFactor / (8 * ground);
    for (let c = 0; c < size; c++) {
      const centre = (r + 1) * stride + (c + 1);
      const a0 = validity[centre]!;
      const z0 = values[centre]!;
      if (!(a0 > 0) || Number.isNaN(z0)) continue;
      const z = (dr: number, dc: number) => {
        const i = centre + dr * stride + dc;
        const v = values[i]!;
        return validity[i]! > 0 && !Number.isNaN(v) ? v : z0;
      };
      const a = z(-1, -1);
      const b = z(-1, 0);
      const cc = z(-1, 1);
      const d = z(0, -1);
      const f = z(0, 1);
      const g = z(1, -1);
      const h = z(1, 0);
      const i = z(1, 1);
      const dzdx = (cc + 2 * f + i - (a + 2 * d + g)) * scale;
      const dzdy = (g + 2 * h + i - (a + 2 * b + cc)) * scale;
      const slope = Math.atan(Math.sqrt(dzdx * dzdx + dzdy * dzdy));
      const aspect = Math.atan2(dzdy, -dzdx);
      const shade = cosZenith * Math.cos(slope) + sinZenith * Math.sin(slope) * Math.cos(azimuth - aspect);
      const out = shade <= 0 ? 1 : 1 + 254 * shade;
      const o = r * size + c;
      grey[o] = Math.min(255, Math.round(out));
      alpha[o] = a0 >= 255 ? 255 : Math.round(a0);
      visible++;
    }
  }
  return { grey, alpha, visible };
}

/**
 * Terrarium elevation encoding (the one Mapzen's and AWS's open terrain tiles use, and MapLibre
 * reads as `encoding: 'terrarium'`): height = R·256 + G + B/256 − 32768 metres. Chosen over
 * Mapbox's encoding because it needs no offset/scale constants, holds whole-metre DEMs (Int16
 * and most SRTM-like data) exactly, and its 1/256 m step is finer than Mapbox's 0.1 m.
 */

const OFFSET = 32768;
const MAX = 32767 + 255 / 256;

/**
 * Heights (metres) → interleaved opaque RGBA. Pixels the warper marked invalid (`validity` 0:
 * nodata, or outside the raster) and non-finite values become `ground`: MapLibre cannot draw
 * holes, and a ground at the DEM's lowest height (renderDemTile.ts) keeps its edge from standing
 * as a wall above sea level once exaggerated.
 */
export function encodeTerrarium(heights: ArrayLike<number>, validity: ArrayLike<number>, ground = 0): Uint8Array {
  const rgba = new Uint8Array(heights.length * 4);
  for (let i = 0; i < heights.length; i++) {
    const h = heights[i]!;
    const valid = validity[i]! > 0 && Number.isFinite(h);
    // Rounded to the encoding's 1/256 m step, then clamped to what it can hold.
    const v = Math.round((Math.min(MAX, Math.max(-OFFSET, valid ? h : ground)) + OFFSET) * 256);
    rgba[i * 4] = v >> 16;
    rgba[i * 4 + 1] = (v >> 8) & 255;
    rgba[i * 4 + 2] = v & 255;
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}

/** One pixel's height back from its R, G, B (what MapLibre computes). */
export function decodeTerrarium(r: number, g: number, b: number): number {
  return r * 256 + g + b / 256 - OFFSET;
}

/**
 * The scale bar of a print page (issue #15), pure: metres per pixel from the map's zoom and
 * latitude, and the longest round length (1, 2 or 5 × 10ⁿ) that fits the bar's box.
 */

/** The equator's length in metres (WGS 84), as web-mercator tiles are laid out. */
const EQUATOR_M = 40_075_016.686;
/** MapLibre's world is 512 CSS pixels wide at zoom 0. */
const TILE_SIZE = 512;

/** Ground metres per CSS pixel at `lat` degrees and `zoom` (web mercator). */
export function metresPerPixel(lat: number, zoom: number): number {
  return (EQUATOR_M * Math.cos((lat * Math.PI) / 180)) / (TILE_SIZE * 2 ** zoom);
}

export interface ScaleBar {
  /** The ground length the bar stands for. */
  metres: number;
  /** Its length on the page in pixels. */
  pixels: number;
  /** `500 m`, `2 km`… */
  label: string;
}

/** The largest of 1, 2, 5 × 10ⁿ not above `value`. */
export function niceLength(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const first = value / power;
  return (first >= 5 ? 5 : first >= 2 ? 2 : 1) * power;
}

export function formatLength(metres: number): string {
  if (metres >= 1000) return `${+(metres / 1000).toPrecision(6)} km`;
  return `${+metres.toPrecision(6)} m`;
}

/**
 * A bar no longer than `maxPixels` for a page on which one pixel is `metresPerPagePixel` of
 * ground; null when the scale is unknown (not finite or not positive).
 */
export function planScaleBar(metresPerPagePixel: number, maxPixels: number): ScaleBar | null {
  if (!(metresPerPagePixel > 0) || !Number.isFinite(metresPerPagePixel) || !(maxPixels > 0)) return null;
  const metres = niceLength(metresPerPagePixel * maxPixels);
  return { metres, pixels: metres / metresPerPagePixel, label: formatLength(metres) };
}

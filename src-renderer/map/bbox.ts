import type { BBox, Layer } from '../../src-shared/domain/layer.js';

const MAX_LAT = 85.051129;

function isUsable(b: BBox | null | undefined): b is BBox {
  return !!b && b.every(Number.isFinite) && b[0] <= b[2] && b[1] <= b[3];
}

/** Union of the layers' EPSG:4326 extents, or null when none has a usable one. */
export function unionExtent(layers: readonly Layer[]): BBox | null {
  let union: BBox | null = null;
  for (const layer of layers) {
    const b = layer.info.extent4326;
    if (!isUsable(b)) continue;
    union = union ? [Math.min(union[0], b[0]), Math.min(union[1], b[1]), Math.max(union[2], b[2]), Math.max(union[3], b[3])] : [...b];
  }
  return union;
}

/**
 * A box MapLibre can fit: clamped to Web Mercator's range. An antimeridian-crossing box
 * (west > east) is widened to the whole world rather than fitted backwards.
 */
export function fittableBounds(b: BBox): [[number, number], [number, number]] | null {
  if (!b.every(Number.isFinite)) return null;
  const clampLon = (v: number) => Math.min(180, Math.max(-180, v));
  const clampLat = (v: number) => Math.min(MAX_LAT, Math.max(-MAX_LAT, v));
  const [w, s, e, n] = b[0] <= b[2] ? b : [-180, b[1], 180, b[3]];
  return [
    [clampLon(w), clampLat(Math.min(s, n))],
    [clampLon(e), clampLat(Math.max(s, n))],
  ];
}

import type { BBox } from '../../src-shared/domain/layer.js';

/** Degrees around the inputs within which an output is still "near" them (a buffer, a contour's edge). */
const MARGIN_DEG = 0.5;
/** An output whose box covers this many times the inputs' (with the margin) is "much larger". */
const MUCH_LARGER = 25;

export type ExtentVerdict = { kind: 'ok' } | { kind: 'outside' } | { kind: 'much_larger'; times: number };

/**
 * The output's extent against its inputs', all in EPSG:4326: an output that touches none of
 * them, or covers far more ground, usually means a CRS mix-up (metres read as degrees, swapped
 * axes) or a distance in the wrong units. A margin keeps buffers and point inputs quiet.
 */
export function compareExtents(output: BBox, inputs: readonly BBox[]): ExtentVerdict {
  if (inputs.length === 0) return { kind: 'ok' };
  if (!inputs.some((i) => intersects(output, grow(i, MARGIN_DEG)))) return { kind: 'outside' };
  const union = grow(inputs.reduce(unionOf), MARGIN_DEG);
  const times = area(output) / area(union);
  return times > MUCH_LARGER ? { kind: 'much_larger', times: Math.round(times) } : { kind: 'ok' };
}

function intersects(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

function grow(b: BBox, d: number): BBox {
  return [b[0] - d, b[1] - d, b[2] + d, b[3] + d];
}

function unionOf(a: BBox, b: BBox): BBox {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

function area(b: BBox): number {
  return Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
}

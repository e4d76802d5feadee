/**
 * A linear stretch of `values` from min..max onto 0..255 grey. A pixel is transparent where
 * the warp left no data (alpha 0) or the value is not a number.
 */
export function stretchToGrey(
  values: ArrayLike<number>,
  validity: ArrayLike<number>,
  min: number,
  max: number,
): { grey: Uint8Array; alpha: Uint8Array; visible: number } {
  const n = values.length;
  const grey = new Uint8Array(n);
  const alpha = new Uint8Array(n);
  const scale = stretchScale(min, max);
  let visible = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const a = validity[i]!;
    if (!(a > 0) || Number.isNaN(v)) continue;
    grey[i] = stretchByte(v, min, scale);
    alpha[i] = alphaByte(a);
    visible++;
  }
  return { grey, alpha, visible };
}

/**
 * The `scale` of stretchByte for min..max. A flat band (min = max) has nothing to stretch: 0,
 * so it draws black rather than dividing by 0.
 */
export function stretchScale(min: number, max: number): number {
  return max > min ? 255 / (max - min) : 0;
}

/** `v` stretched from `min` at `scale` (255 / (max − min)) onto a byte, clamped to 0..255. */
export function stretchByte(v: number, min: number, scale: number): number {
  const s = (v - min) * scale;
  return s <= 0 ? 0 : s >= 255 ? 255 : Math.round(s);
}

/** The warper's validity as an alpha byte: partial alpha (edge pixels under bilinear) keeps edges smooth. */
export function alphaByte(a: number): number {
  return a >= 255 ? 255 : Math.round(a);
}

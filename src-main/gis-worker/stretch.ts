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
  // A flat band (min = max) has nothing to stretch; it draws black rather than dividing by 0.
  const scale = max > min ? 255 / (max - min) : 0;
  let visible = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const a = validity[i]!;
    if (!(a > 0) || Number.isNaN(v)) continue;
    const g = (v - min) * scale;
    grey[i] = g <= 0 ? 0 : g >= 255 ? 255 : Math.round(g);
    // Partial alpha from the warper (edge pixels under bilinear) keeps edges smooth.
    alpha[i] = a >= 255 ? 255 : Math.round(a);
    visible++;
  }
  return { grey, alpha, visible };
}

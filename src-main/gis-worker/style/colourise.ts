/**
 * Per-pixel colouring of warped tile values into RGBA bytes: a ramp for one band
 * (pseudocolour) or three stretched bands (RGB composite). A pixel is transparent where the
 * warp left no data (validity 0: outside the raster or nodata) or a value is not a number.
 */
import { alphaByte, stretchByte, stretchScale } from '../stretch.js';

export interface Rgba {
  rgba: Uint8Array;
  visible: number;
}

/** `lut` holds 256 RGB triplets; values are stretched linearly from min..max onto its index. */
export function pseudocolour(values: ArrayLike<number>, validity: ArrayLike<number>, min: number, max: number, lut: Uint8Array): Rgba {
  const n = values.length;
  const rgba = new Uint8Array(n * 4);
  const scale = stretchScale(min, max);
  let visible = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const a = validity[i]!;
    if (!(a > 0) || Number.isNaN(v)) continue;
    const k = stretchByte(v, min, scale) * 3;
    rgba[i * 4] = lut[k]!;
    rgba[i * 4 + 1] = lut[k + 1]!;
    rgba[i * 4 + 2] = lut[k + 2]!;
    rgba[i * 4 + 3] = alphaByte(a);
    visible++;
  }
  return { rgba, visible };
}

export interface Channel {
  values: ArrayLike<number>;
  min: number;
  max: number;
}

/** Red, green and blue each stretched on its own range; a pixel needs all three values. */
export function rgbComposite(channels: readonly [Channel, Channel, Channel], validity: ArrayLike<number>): Rgba {
  const n = validity.length;
  const rgba = new Uint8Array(n * 4);
  const scales = channels.map((c) => stretchScale(c.min, c.max));
  let visible = 0;
  for (let i = 0; i < n; i++) {
    const a = validity[i]!;
    if (!(a > 0)) continue;
    let ok = true;
    for (let b = 0; b < 3; b++) {
      const v = channels[b]!.values[i]!;
      if (Number.isNaN(v)) {
        ok = false;
        break;
      }
      rgba[i * 4 + b] = stretchByte(v, channels[b]!.min, scales[b]!);
    }
    if (!ok) continue;
    rgba[i * 4 + 3] = alphaByte(a);
    visible++;
  }
  return { rgba, visible };
}

import { z } from 'zod';

/**
 * Named colour ramps for graduated maps, heatmaps and raster pseudocolour, and the palettes
 * for categories and bivariate maps. Pure data and pure functions: the compilers (shared), the
 * tile renderer (worker) and the legend (renderer) sample the same ramp the same way.
 *
 * Sequential and diverging ramps are the ColorBrewer schemes (Cynthia Brewer, Apache-2.0
 * licensed scheme definitions); viridis, magma and plasma the matplotlib perceptual maps
 * (CC0), sampled at even steps; `terrain` a land hypsometric ramp (green lowlands → brown → snow).
 * Every ramp runs from low to high values; `invert` flips it.
 */
export const RAMPS = {
  viridis: ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'],
  magma: ['#000004', '#1c1044', '#4f127b', '#812581', '#b5367a', '#e55064', '#fb8761', '#fec287', '#fcfdbf'],
  plasma: ['#0d0887', '#46039f', '#7201a8', '#9c179e', '#bd3786', '#d8576b', '#ed7953', '#fb9f3a', '#fdca26', '#f0f921'],
  terrain: ['#00a600', '#63c600', '#e6e600', '#e9bd3a', '#ecb176', '#efc2b3', '#f2f2f2'],
  spectral: ['#9e0142', '#d53e4f', '#f46d43', '#fdae61', '#fee08b', '#ffffbf', '#e6f598', '#abdda4', '#66c2a5', '#3288bd', '#5e4fa2'],
  greys: ['#ffffff', '#f0f0f0', '#d9d9d9', '#bdbdbd', '#969696', '#737373', '#525252', '#252525', '#000000'],
  blues: ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'],
  greens: ['#f7fcf5', '#e5f5e0', '#c7e9c0', '#a1d99b', '#74c476', '#41ab5d', '#238b45', '#006d2c', '#00441b'],
  reds: ['#fff5f0', '#fee0d2', '#fcbba1', '#fc9272', '#fb6a4a', '#ef3b2c', '#cb181d', '#a50f15', '#67000d'],
  oranges: ['#fff5eb', '#fee6ce', '#fdd0a2', '#fdae6b', '#fd8d3c', '#f16913', '#d94801', '#a63603', '#7f2704'],
  purples: ['#fcfbfd', '#efedf5', '#dadaeb', '#bcbddc', '#9e9ac8', '#807dba', '#6a51a3', '#54278f', '#3f007d'],
  ylorrd: ['#ffffcc', '#ffeda0', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#bd0026', '#800026'],
  ylgnbu: ['#ffffd9', '#edf8b1', '#c7e9b4', '#7fcdbb', '#41b6c4', '#1d91c0', '#225ea8', '#253494', '#081d58'],
  rdylgn: ['#a50026', '#d73027', '#f46d43', '#fdae61', '#fee08b', '#ffffbf', '#d9ef8b', '#a6d96a', '#66bd63', '#1a9850', '#006837'],
  rdbu: ['#67001f', '#b2182b', '#d6604d', '#f4a582', '#fddbc7', '#f7f7f7', '#d1e5f0', '#92c5de', '#4393c3', '#2166ac', '#053061'],
} as const satisfies Record<string, readonly string[]>;

export type RampName = keyof typeof RAMPS;
export const RAMP_NAMES = Object.keys(RAMPS) as [RampName, ...RampName[]];
export const RampName = z.enum(RAMP_NAMES);

/** Distinct, colour-blind-friendlier hues for categories (Tableau 10, then lighter partners). */
export const CATEGORY_PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#a0cbe8',
  '#ffbe7d',
  '#ff9d9a',
  '#86bcb6',
  '#8cd17d',
  '#f1ce63',
  '#d4a6c8',
  '#fabfd2',
  '#d7b5a6',
  '#79706e',
] as const;

/**
 * The standard 3×3 bivariate choropleth palette (Joshua Stevens' blue–red scheme), row by row:
 * index = xClass + 3 · yClass, both classes 0 (low) … 2 (high). Low/low is light grey, high x
 * reddens, high y blues, high/high is dark.
 */
export const BIVARIATE_PALETTE = [
  '#e8e8e8',
  '#e4acac',
  '#c85a5a',
  '#b0d5df',
  '#ad9ea5',
  '#985356',
  '#64acbe',
  '#627f8c',
  '#574249',
] as const;

export type Rgb = [number, number, number];

export function hexToRgb(hex: string): Rgb {
  const v = Number.parseInt(hex.slice(1, 7), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

export function rgbToHex([r, g, b]: Rgb): string {
  const h = (n: number) =>
    Math.max(0, Math.min(255, Math.round(n)))
      .toString(16)
      .padStart(2, '0');
  return `#${h(r)}${h(g)}${h(b)}`;
}

/** The ramp's stops, low first; flipped when inverted. */
export function rampStops(name: RampName, invert = false): string[] {
  const stops = [...RAMPS[name]];
  return invert ? stops.reverse() : stops;
}

/** The ramp's colour at t ∈ [0, 1], interpolated linearly in sRGB between its stops. */
export function rampColourAt(name: RampName, t: number, invert = false): Rgb {
  const stops = RAMPS[name];
  const u = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0));
  const pos = (invert ? 1 - u : u) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(pos));
  const f = pos - i;
  const a = hexToRgb(stops[i]!);
  const b = hexToRgb(stops[i + 1]!);
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/**
 * `n` colours spread over the whole ramp, for `n` classes: the first class gets the ramp's
 * low end and the last its high end (one class gets the middle).
 */
export function sampleRamp(name: RampName, n: number, invert = false): string[] {
  if (n <= 0) return [];
  if (n === 1) return [rgbToHex(rampColourAt(name, 0.5, invert))];
  return Array.from({ length: n }, (_, i) => rgbToHex(rampColourAt(name, i / (n - 1), invert)));
}

/** A 256-entry RGB lookup table, for the worker's per-pixel colouring (index = stretched byte). */
export function rampLut(name: RampName, invert = false): Uint8Array {
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const [r, g, b] = rampColourAt(name, i / 255, invert);
    lut[i * 3] = Math.round(r);
    lut[i * 3 + 1] = Math.round(g);
    lut[i * 3 + 2] = Math.round(b);
  }
  return lut;
}

/** Category colours, cycling through the palette for more than it holds. */
export function categoryColours(n: number): string[] {
  return Array.from({ length: n }, (_, i) => CATEGORY_PALETTE[i % CATEGORY_PALETTE.length]!);
}

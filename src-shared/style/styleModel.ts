import { z } from 'zod';
import { GreyRasterStyle, HillshadeRasterStyle, PseudocolorRasterStyle, RgbRasterStyle } from './rasterStyleModel.js';
import {
  BivariateStyle,
  CategorizedStyle,
  ExtrudeStyle,
  GraduatedStyle,
  HeatmapStyle,
  RuleBasedStyle,
  SimpleVectorStyle,
} from './vectorStyleModel.js';

export * from './rasterStyleModel.js';
export * from './vectorStyleModel.js';

/**
 * A layer's style, saved with the layer. Vector kinds compile to MapLibre layers
 * (compileLayerStyle.ts); raster kinds are applied by the worker when it renders tiles.
 */
export const LayerStyle = z.discriminatedUnion('type', [
  SimpleVectorStyle,
  CategorizedStyle,
  GraduatedStyle,
  RuleBasedStyle,
  HeatmapStyle,
  BivariateStyle,
  ExtrudeStyle,
  GreyRasterStyle,
  PseudocolorRasterStyle,
  HillshadeRasterStyle,
  RgbRasterStyle,
]);
export type LayerStyle = z.infer<typeof LayerStyle>;

/** The styles that carry labels (all vector styles but the heatmap; extruded polygons too). */
export type LabelledStyle = Exclude<LayerStyle, { type: 'heatmap' | 'grey' | 'pseudocolor' | 'hillshade' | 'rgb' }>;

export function isLabelledStyle(style: LayerStyle): style is LabelledStyle {
  return ['simple', 'categorized', 'graduated', 'rules', 'bivariate', 'extrude'].includes(style.type);
}

/** A readable palette; a new layer takes the next colour so layers differ at a glance. */
export const PALETTE = ['#e4572e', '#17bebb', '#ffc914', '#76b041', '#8e44ad', '#2e86de', '#d35400', '#c0392b'];

export function defaultVectorStyle(index: number): SimpleVectorStyle {
  const fill = PALETTE[index % PALETTE.length]!;
  return { type: 'simple', fill, stroke: '#222222', strokeWidth: 1, pointRadius: 5 };
}

export function defaultRasterStyle(): GreyRasterStyle {
  return { type: 'grey', band: 1, min: null, max: null };
}

import { z } from 'zod';
import type { Layer } from '../../src-shared/domain/layer.js';
import { geometryKindOf } from '../../src-shared/style/compileLayerStyle.js';
import { formatNumber } from '../../src-shared/style/formatNumber.js';
import { defaultVectorStyle, isLabelledStyle, type LabelStyle, type LayerStyle } from '../../src-shared/style/styleModel.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { findLayer } from '../layers/findLayer.js';

/** Shared steps of the style tools: find the layer, check fields, call the worker, save. */

/** What the approval dialog shows about the effect. */
export type Preview = Record<string, string | number | boolean | null>;

export const NUMERIC_TYPES = new Set(['integer', 'integer64', 'real']);

export const ColourParam = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

export function vectorLayer(project: ProjectHandle, ref: string): Layer {
  const layer = findLayer(project, ref);
  if (layer.kind !== 'vector') {
    throw new ToolFailure(
      'invalid_params',
      `'${layer.name}' is a raster; this style is for vector layers.`,
      false,
      'For rasters use style_raster_pseudocolor, style_raster_hillshade, style_raster_rgb or style_raster_grey.',
    );
  }
  return layer;
}

export function rasterLayer(project: ProjectHandle, ref: string, bands: readonly number[] = []): Layer {
  const layer = findLayer(project, ref);
  if (layer.kind !== 'raster') {
    throw new ToolFailure(
      'invalid_params',
      `'${layer.name}' is a vector layer; this style is for rasters.`,
      false,
      'For vector layers use style_set_simple, style_categorize, style_graduate, style_rules, style_heatmap or style_bivariate.',
    );
  }
  const count = layer.info.bands.length;
  for (const band of bands) {
    if (band > count)
      throw new ToolFailure(
        'invalid_params',
        `'${layer.name}' has ${count} band${count === 1 ? '' : 's'}; there is no band ${band}.`,
        false,
        `Bands are numbered 1 to ${count}.`,
      );
  }
  return layer;
}

function fieldList(layer: Layer, numericOnly: boolean): string {
  const fields = layer.info.fields.filter((f) => !numericOnly || NUMERIC_TYPES.has(f.type));
  return fields.map((f) => `${f.name} (${f.type})`).join(', ') || '(none)';
}

/** Checks a field exists (and is numeric when asked), failing with the fields that would do. */
export function requireField(layer: Layer, field: string, opts: { numeric?: boolean; param?: string } = {}): void {
  const param = opts.param ?? 'field';
  const found = layer.info.fields.find((f) => f.name === field);
  if (!found) {
    const near = layer.info.fields.find((f) => f.name.toLowerCase() === field.toLowerCase());
    throw new ToolFailure(
      'invalid_params',
      `${param}: '${layer.name}' has no field '${field}'.${near ? ` Did you mean '${near.name}'?` : ''}`,
      true,
      `${opts.numeric ? 'Numeric fields' : 'Fields'} of '${layer.name}': ${fieldList(layer, opts.numeric ?? false)}.`,
    );
  }
  if (opts.numeric && !NUMERIC_TYPES.has(found.type)) {
    throw new ToolFailure(
      'invalid_params',
      `${param}: field '${field}' of '${layer.name}' holds ${found.type} values; this style needs numbers.`,
      true,
      `Numeric fields of '${layer.name}': ${fieldList(layer, true)}. For text values use style_categorize.`,
    );
  }
}

/** What a new vector style inherits from the current one: outline, sizes, opacity and labels. */
export function currentSymbol(layer: Layer): {
  stroke: string;
  strokeWidth: number;
  pointRadius: number;
  opacity?: number;
  labels?: LabelStyle;
} {
  const style = isLabelledStyle(layer.style) ? layer.style : defaultVectorStyle(layer.order);
  return {
    stroke: style.stroke,
    strokeWidth: style.strokeWidth,
    pointRadius: style.pointRadius,
    ...(style.opacity !== undefined ? { opacity: style.opacity } : {}),
    ...(style.labels ? { labels: style.labels } : {}),
  };
}

/** Optional symbol overrides shared by the vector style tools (outline, size, opacity). */
export const SymbolParams = {
  stroke: ColourParam.optional().describe('Outline colour of polygons and points, #rrggbb; default: keep the current one'),
  stroke_width: z.number().min(0).max(20).optional().describe('Outline width (polygons, points) or line width (lines), pixels'),
  size: z.number().min(0).max(50).optional().describe('Point radius in pixels'),
  opacity: z.number().min(0).max(1).optional().describe('Opacity of the fill or symbol colour, 0–1 (polygons default 0.7)'),
};

export function applySymbolParams<T extends { stroke: string; strokeWidth: number; pointRadius: number; opacity?: number }>(
  base: T,
  p: { stroke?: string | undefined; stroke_width?: number | undefined; size?: number | undefined; opacity?: number | undefined },
): T {
  return {
    ...base,
    ...(p.stroke !== undefined ? { stroke: p.stroke } : {}),
    ...(p.stroke_width !== undefined ? { strokeWidth: p.stroke_width } : {}),
    ...(p.size !== undefined ? { pointRadius: p.size } : {}),
    ...(p.opacity !== undefined ? { opacity: p.opacity } : {}),
  };
}

export function geometryOf(layer: Layer): string {
  return geometryKindOf(layer.info.geometryType);
}

/** Saves the style and says what changed, for the model. */
export function saveStyle(project: ProjectHandle, layer: Layer, style: LayerStyle): { id: string; name: string; style: string } {
  const updated = project.updateLayer(layer.id, { style });
  return { id: updated.id, name: updated.name, style: updated.style.type };
}

/** A number for people (shared with the legend). */
export const fmt = formatNumber;

/** The classes of a graduated style, readable: `[{ range: '248 – 855', colour, count }]`. */
export function classTable(breaks: readonly number[], colours: readonly string[], counts?: readonly number[]) {
  return colours.map((colour, i) => ({
    range: `${fmt(breaks[i]!)} – ${fmt(breaks[i + 1]!)}`,
    colour,
    ...(counts ? { count: counts[i] ?? 0 } : {}),
  }));
}

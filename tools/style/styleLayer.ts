import { z } from 'zod';
import type { Layer } from '../../src-shared/domain/layer.js';
import { geometryKindOf } from '../../src-shared/style/compileLayerStyle.js';
import { formatNumber } from '../../src-shared/style/formatNumber.js';
import { defaultVectorStyle, isLabelledStyle, type LabelStyle, type LayerStyle } from '../../src-shared/style/styleModel.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/**
 * Shared steps of the style tools: check fields named in text, call the worker, save. Which
 * layer and field kinds a tool takes are its declared `rules` (STYLE_LAYER and friends below),
 * checked by the dispatcher before prepare.
 */

/** What the approval dialog shows about the effect. */
export type Preview = Record<string, string | number | boolean | null>;

export const NUMERIC_TYPES = new Set(['integer', 'integer64', 'real']);

/** The `layer` of a vector style: a vector layer of the project. */
export const VECTOR_LAYER = ['layer_exists', 'vector'] as const;
/** The `layer` of a raster style: a raster layer of the project. */
export const RASTER_LAYER = ['layer_exists', 'raster'] as const;
/** A numeric field of the tool's `layer`. */
export const NUMERIC_FIELD = ['field_exists:layer', 'field_numeric'] as const;

export const ColourParam = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

function fieldList(layer: Layer): string {
  return layer.info.fields.map((f) => `${f.name} (${f.type})`).join(', ') || '(none)';
}

/**
 * Checks a field named inside a text (a label template, a rule's filter) exists, failing with
 * the fields there are. A field given as its own parameter is a declared rule (`field_exists`)
 * the dispatcher checks before prepare.
 */
export function requireField(layer: Layer, field: string, param: string): void {
  if (layer.info.fields.some((f) => f.name === field)) return;
  const near = layer.info.fields.find((f) => f.name.toLowerCase() === field.toLowerCase());
  throw new ToolFailure(
    'invalid_params',
    `${param}: '${layer.name}' has no field '${field}'.${near ? ` Did you mean '${near.name}'?` : ''}`,
    true,
    `Fields of '${layer.name}': ${fieldList(layer)}.`,
  );
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

import type { Layer } from '../domain/layer.js';
import { rampStops } from './colourRamps.js';
import { geometryKindOf } from './compileShared.js';
import { formatNumber } from './formatNumber.js';
import { isLabelledStyle, isRasterStyle, type LayerStyle } from './styleModel.js';

/**
 * What the legend shows for a layer, from its saved style alone (pure; the MapLegend
 * component only draws it). Swatches for classes, categories and rules; a ramp bar for
 * continuous colouring (rasters, heatmaps); a 3×3 grid for bivariate maps.
 */

export type LegendSymbol = 'fill' | 'line' | 'point';

export interface LegendSwatch {
  colour: string;
  label: string;
  /** Outline colour (polygons, points). */
  stroke?: string;
  /** Relative size for proportional symbols, in pixels. */
  size?: number;
}

export type LegendEntry =
  | { kind: 'swatches'; title: string | null; symbol: LegendSymbol; items: LegendSwatch[] }
  | { kind: 'ramp'; title: string | null; colours: string[]; low: string; high: string }
  | { kind: 'grid'; palette: string[]; xLabel: string; yLabel: string }
  | { kind: 'channels'; channels: { colour: string; label: string }[] }
  | { kind: 'note'; text: string; message?: LegendNoteMessage };

/**
 * What a note says, for an interface that words it in its own language; `text` is the English
 * wording (main and the print layout of an English interface use it as it is).
 */
export type LegendNoteMessage =
  { key: 'labels'; field: string } | { key: 'extrude'; field: string; scale: string } | { key: 'terrain'; exaggeration: string };

export interface LayerLegend {
  layerId: string;
  name: string;
  entries: LegendEntry[];
}

function symbolOf(layer: Layer): LegendSymbol {
  const kind = geometryKindOf(layer.info.geometryType);
  return kind === 'line' ? 'line' : kind === 'point' ? 'point' : 'fill';
}

const range = (a: number, b: number) => `${formatNumber(a)} – ${formatNumber(b)}`;
const bound = (v: number | null, fallback: string) => (v === null ? fallback : formatNumber(v));

function styleEntries(layer: Layer, style: LayerStyle): LegendEntry[] {
  const symbol = symbolOf(layer);
  switch (style.type) {
    case 'simple':
      return [{ kind: 'swatches', title: null, symbol, items: [{ colour: style.fill, stroke: style.stroke, label: layer.name }] }];
    case 'categorized': {
      const items: LegendSwatch[] = style.categories.map((c) => ({ colour: c.colour, stroke: style.stroke, label: c.label }));
      if (style.otherColour) items.push({ colour: style.otherColour, stroke: style.stroke, label: 'Other' });
      return [{ kind: 'swatches', title: style.field, symbol, items }];
    }
    case 'graduated': {
      const items: LegendSwatch[] = style.colours.map((colour, i) => ({
        colour,
        stroke: style.stroke,
        label: range(style.breaks[i]!, style.breaks[i + 1]!),
        ...(style.sizes ? { size: style.sizes[i]! } : {}),
      }));
      if (style.nullColour) items.push({ colour: style.nullColour, stroke: style.stroke, label: 'No value' });
      return [{ kind: 'swatches', title: style.field, symbol, items }];
    }
    case 'rules': {
      const items: LegendSwatch[] = style.rules.map((r) => ({
        colour: r.colour,
        stroke: style.stroke,
        label: r.label,
        ...(r.size !== undefined ? { size: r.size } : {}),
      }));
      if (style.elseColour) items.push({ colour: style.elseColour, stroke: style.stroke, label: style.elseLabel ?? 'Other' });
      return [{ kind: 'swatches', title: null, symbol, items }];
    }
    case 'extrude':
      return [
        { kind: 'swatches', title: null, symbol, items: [{ colour: style.fill, stroke: style.stroke, label: layer.name }] },
        {
          kind: 'note',
          text: `3D: height = ${style.field} × ${formatNumber(style.scale)} m`,
          message: { key: 'extrude', field: style.field, scale: formatNumber(style.scale) },
        },
      ];
    case 'bivariate': {
      const entries: LegendEntry[] = [
        {
          kind: 'grid',
          palette: [...style.palette],
          xLabel: `${style.fieldX} → (${range(style.breaksX[0], style.breaksX[3])})`,
          yLabel: `${style.fieldY} → (${range(style.breaksY[0], style.breaksY[3])})`,
        },
      ];
      // Features missing either value are painted `nullColour` (vectorPaint.ts), or hidden when it is null.
      if (style.nullColour)
        entries.push({
          kind: 'swatches',
          title: null,
          symbol,
          items: [{ colour: style.nullColour, stroke: style.stroke, label: 'No value' }],
        });
      return entries;
    }
    case 'heatmap':
      return [
        {
          kind: 'ramp',
          title: style.weightField ? `density weighted by ${style.weightField}` : 'point density',
          colours: rampStops(style.ramp, style.invert ?? false),
          low: 'sparse',
          high: 'dense',
        },
      ];
    case 'grey':
      return [
        {
          kind: 'ramp',
          title: `band ${style.band}`,
          colours: ['#000000', '#ffffff'],
          low: bound(style.min, 'min'),
          high: bound(style.max, 'max'),
        },
      ];
    case 'pseudocolor':
      return [
        {
          kind: 'ramp',
          title: `band ${style.band}`,
          colours: rampStops(style.ramp, style.invert),
          low: bound(style.min, '2 %'),
          high: bound(style.max, '98 %'),
        },
      ];
    case 'hillshade':
      return [
        {
          kind: 'ramp',
          title: `hillshade, light ${formatNumber(style.azimuth)}° / ${formatNumber(style.altitude)}°`,
          colours: ['#000000', '#ffffff'],
          low: 'shadow',
          high: 'lit',
        },
      ];
    case 'rgb': {
      const ch = (colour: string, name: string, c: { band: number; min: number | null; max: number | null }) => ({
        colour,
        label: `${name}: band ${c.band}${c.min !== null && c.max !== null ? ` (${range(c.min, c.max)})` : ''}`,
      });
      return [
        { kind: 'channels', channels: [ch('#e03131', 'R', style.red), ch('#2f9e44', 'G', style.green), ch('#1971c2', 'B', style.blue)] },
      ];
    }
  }
}

export function legendFor(layer: Layer): LayerLegend {
  const entries = styleEntries(layer, layer.style);
  if (isLabelledStyle(layer.style) && layer.style.labels) {
    const field = layer.style.labels.text;
    entries.push({ kind: 'note', text: `Labels: ${field}`, message: { key: 'labels', field } });
  }
  if (isRasterStyle(layer.style) && layer.style.terrain) {
    const exaggeration = formatNumber(layer.style.terrain.exaggeration);
    entries.push({ kind: 'note', text: `3D terrain, heights × ${exaggeration}`, message: { key: 'terrain', exaggeration } });
  }
  return { layerId: layer.id, name: layer.name, entries };
}

/** Legends of the visible layers, top of the map first (as a legend reads). */
export function visibleLegends(layers: readonly Layer[]): LayerLegend[] {
  return [...layers]
    .filter((l) => l.visible && l.opacity > 0)
    .sort((a, b) => b.order - a.order)
    .map(legendFor);
}

import type { ExpressionSpecification, LayerSpecification, SourceSpecification } from 'maplibre-gl';
import type { Layer } from '../domain/layer.js';
import { clampOpacity, dataRevision, geometryKindOf, mapLayerIdFor, styleHash, visibility } from './compileShared.js';
import { LABEL_FONTSTACK } from './glyphs.js';
import { filterFields, parseFilter } from './ruleFilter.js';
import { isLabelledStyle, type LabelledStyle, type LabelStyle, type LayerStyle } from './styleModel.js';
import { isTiledLayer } from './vectorTiles.js';
import { templateFields } from './vectorStyleModel.js';
import { vectorPaintOf } from './vectorPaint.js';

/**
 * Labels. Lines and points are labelled from the layer's own source. Polygons labelled at a
 * point are labelled from one point per feature — inside its largest part, computed by the
 * worker (`style.label_points`) — because MapLibre would label every part of a multipolygon
 * (ten "Canada"s across the Arctic islands). That point source is a map entry of its own,
 * drawn above every layer, as labels are in a GIS.
 */

/** The label template as a text expression: `{FIELD}` → the value as text, the rest verbatim. */
export function labelTextExpression(template: string): ExpressionSpecification {
  const parts: ExpressionSpecification[] = [];
  const literal = (s: string) => parts.push(s as unknown as ExpressionSpecification);
  let last = 0;
  for (const m of template.matchAll(/\{([^{}]+)\}/g)) {
    if (m.index > last) literal(template.slice(last, m.index));
    parts.push(['to-string', ['get', m[1]!]]);
    last = m.index + m[0].length;
  }
  if (last < template.length) literal(template.slice(last));
  if (parts.length === 1 && typeof parts[0] !== 'string') return parts[0]!;
  return ['concat', ...parts] as ExpressionSpecification;
}

export function labelLayerSpec(
  layer: Layer,
  sourceId: string,
  labels: LabelStyle,
  styleFilter: ExpressionSpecification | null,
): LayerSpecification {
  return {
    id: mapLayerIdFor(layer.id, 'label'),
    type: 'symbol',
    source: sourceId,
    ...(styleFilter ? { filter: styleFilter } : {}),
    ...(labels.minZoom > 0 ? { minzoom: labels.minZoom } : {}),
    layout: {
      visibility: visibility(layer),
      'text-field': labelTextExpression(labels.text),
      'text-font': [LABEL_FONTSTACK],
      'text-size': labels.size,
      'symbol-placement': labels.placement,
      'text-max-width': 8,
      // Along lines the text follows the line; at points it may move a little to fit.
      ...(labels.placement === 'line'
        ? { 'text-rotation-alignment': 'map' as const }
        : { 'text-variable-anchor': ['center', 'top', 'bottom', 'left', 'right'] as ('center' | 'top' | 'bottom' | 'left' | 'right')[] }),
    },
    paint: {
      'text-color': labels.colour,
      'text-halo-color': labels.haloColour,
      'text-halo-width': labels.haloWidth,
      'text-opacity': clampOpacity(layer.opacity),
    },
  };
}

function labelledStyle(layer: Layer): (LabelledStyle & { labels: LabelStyle }) | null {
  const style = layer.style;
  return layer.kind === 'vector' && isLabelledStyle(style) && style.labels ? (style as LabelledStyle & { labels: LabelStyle }) : null;
}

/** True when the layer's labels come from the worker's label points (polygons, point placement). */
export function usesLabelPoints(layer: Layer): boolean {
  const style = labelledStyle(layer);
  // A tiled layer labels from its tiles (MapLibre places a polygon's label inside it per tile).
  return !!style && style.labels.placement === 'point' && geometryKindOf(layer.info.geometryType) === 'polygon' && !isTiledLayer(layer);
}

/** The attributes a style reads (its classes, rules and label text): what the label points must carry. */
export function styleFields(style: LabelledStyle): string[] {
  const fields = new Set<string>();
  if (style.type === 'categorized' || style.type === 'graduated' || style.type === 'extrude') fields.add(style.field);
  if (style.type === 'bivariate') [style.fieldX, style.fieldY].forEach((f) => fields.add(f));
  if (style.type === 'rules') for (const r of style.rules) filterFields(parseFilter(r.filter)).forEach((f) => fields.add(f));
  if (style.labels) templateFields(style.labels.text).forEach((f) => fields.add(f));
  return [...fields].sort();
}

/** The fields a style reads on the map, sorted: they travel in each vector tile. */
export function tileFields(style: LayerStyle): string[] {
  if (style.type === 'heatmap') return style.weightField ? [style.weightField] : [];
  return isLabelledStyle(style) ? styleFields(style) : [];
}

/**
 * Host path of a layer's label points. The fields' hash is part of it, so a change of label
 * text fetches points that carry the new fields, and so is an edited layer's data revision
 * (`r3`), so an edit fetches points of the new data. `data/layers/ID/labels-HASH[rN].geojson`.
 */
export function labelPointsPath(layerId: string, fields: readonly string[], revision = ''): string {
  return `data/layers/${layerId}/labels-${styleHash(fields)}${revision}.geojson`;
}

export interface LabelOverlay {
  sourceId: string;
  source: SourceSpecification;
  layers: LayerSpecification[];
}

/** The label points entry of a layer, or null when its labels (if any) come from its own source. */
export function compileLabelPoints(layer: Layer, urls: { data(path: string): string }): LabelOverlay | null {
  const style = labelledStyle(layer);
  if (!style || !usesLabelPoints(layer)) return null;
  const sourceId = `src-${layer.id}-labels`;
  return {
    sourceId,
    source: { type: 'geojson', data: urls.data(labelPointsPath(layer.id, styleFields(style), dataRevision(layer))) },
    layers: [labelLayerSpec(layer, sourceId, style.labels, vectorPaintOf(style).filter)],
  };
}

import type { ExpressionSpecification, FilterSpecification, LayerSpecification } from 'maplibre-gl';
import type { Layer } from '../domain/layer.js';
import { labelLayerSpec, usesLabelPoints } from './compileLabels.js';
import { rampStops, hexToRgb } from './colourRamps.js';
import type { ExtrudeStyle, HeatmapStyle } from './vectorStyleModel.js';
import type { LabelledStyle } from './styleModel.js';
import { vectorPaintOf } from './vectorPaint.js';
import { clampOpacity, geometryKindOf, mapLayerIdFor, round, visibility, FILL_OPACITY_FACTOR } from './compileShared.js';

/**
 * Vector styles → MapLibre layers over the layer's GeoJSON source: fill + outline for
 * polygons, a line for lines, circles for points (all of them, each filtered on geometry type,
 * when the geometry type is unknown or mixed), then the labels on top. Pure.
 */
export function compileVectorLayers(layer: Layer, sourceId: string, style: LabelledStyle): LayerSpecification[] {
  const opacity = clampOpacity(layer.opacity);
  const layout = { visibility: visibility(layer) };
  const kind = geometryKindOf(layer.info.geometryType);
  const mixed = kind === 'mixed';
  const paint = vectorPaintOf(style);
  const layers: LayerSpecification[] = [];
  const filtered = (geometry: 'Point' | 'LineString' | 'Polygon'): { filter?: FilterSpecification } => {
    const parts: ExpressionSpecification[] = [];
    if (mixed) parts.push(geometryFilter(geometry));
    if (paint.filter) parts.push(paint.filter);
    if (parts.length === 0) return {};
    return { filter: parts.length === 1 ? parts[0]! : ['all', ...parts] };
  };

  if ((kind === 'polygon' || mixed) && style.type === 'extrude') {
    layers.push(extrusionLayer(layer, sourceId, style, filtered('Polygon')));
  } else if (kind === 'polygon' || mixed) {
    const fillOpacity = style.opacity ?? FILL_OPACITY_FACTOR;
    layers.push({
      id: mapLayerIdFor(layer.id, 'fill'),
      type: 'fill',
      source: sourceId,
      ...filtered('Polygon'),
      layout,
      paint: { 'fill-color': paint.colour, 'fill-opacity': round(opacity * fillOpacity) },
    });
    layers.push({
      id: mapLayerIdFor(layer.id, 'outline'),
      type: 'line',
      source: sourceId,
      ...filtered('Polygon'),
      layout: { ...layout, 'line-join': 'round' },
      paint: { 'line-color': style.stroke, 'line-width': style.strokeWidth, 'line-opacity': opacity },
    });
  }
  if (kind === 'line' || mixed) {
    // A line feature has one colour: the style's main colour, not its outline colour.
    layers.push({
      id: mapLayerIdFor(layer.id, 'line'),
      type: 'line',
      source: sourceId,
      ...filtered('LineString'),
      layout: { ...layout, 'line-join': 'round', 'line-cap': 'round' },
      paint: {
        'line-color': paint.colour,
        'line-width': paint.size ?? Math.max(style.strokeWidth, 1.5),
        'line-opacity': round(opacity * (style.opacity ?? 1)),
      },
    });
  }
  if (kind === 'point' || mixed) {
    const symbolOpacity = round(opacity * (style.opacity ?? 1));
    layers.push({
      id: mapLayerIdFor(layer.id, 'circle'),
      type: 'circle',
      source: sourceId,
      ...filtered('Point'),
      layout,
      paint: {
        'circle-color': paint.colour,
        'circle-radius': paint.size ?? style.pointRadius,
        'circle-opacity': symbolOpacity,
        'circle-stroke-color': style.stroke,
        'circle-stroke-width': Math.min(style.strokeWidth, style.pointRadius),
        'circle-stroke-opacity': opacity,
      },
    });
  }
  // Polygon labels at a point come from one point per feature (compileLabelPoints); the rest from this source.
  if (style.labels && !usesLabelPoints(layer)) layers.push(labelLayerSpec(layer, sourceId, style.labels, paint.filter));
  return layers;
}

/**
 * Extruded polygons: height = the field's number × scale, in metres; a feature without a
 * number stays flat (height 0) rather than vanishing. fill-extrusion has no outline, and its
 * opacity is one value for the whole layer (MapLibre takes no expression there).
 */
function extrusionLayer(layer: Layer, sourceId: string, style: ExtrudeStyle, filter: { filter?: FilterSpecification }): LayerSpecification {
  return {
    id: mapLayerIdFor(layer.id, 'extrusion'),
    type: 'fill-extrusion',
    source: sourceId,
    ...filter,
    layout: { visibility: visibility(layer) },
    paint: {
      'fill-extrusion-color': style.fill,
      'fill-extrusion-height': extrusionHeight(style),
      'fill-extrusion-base': 0,
      'fill-extrusion-opacity': round(clampOpacity(layer.opacity) * (style.opacity ?? EXTRUSION_OPACITY)),
    },
  };
}

/** Extrusions are drawn nearly opaque: see-through walls read as clutter. */
export const EXTRUSION_OPACITY = 0.9;

/** The height expression of an extrude style (metres). */
export function extrusionHeight(style: Pick<ExtrudeStyle, 'field' | 'scale'>): ExpressionSpecification {
  return ['*', ['to-number', ['get', style.field], 0], style.scale];
}

/** The latitude in the middle of the layer's extent in degrees; 0 without one. */
function middleLatitude(layer: Layer): number {
  const e = layer.info.extent4326;
  return e && Number.isFinite(e[1]) && Number.isFinite(e[3]) ? (e[1] + e[3]) / 2 : 0;
}

/** `geometry-type` says `MultiPolygon` in current MapLibre and `Polygon` in older ones: match both. */
export function geometryFilter(base: 'Point' | 'LineString' | 'Polygon'): ExpressionSpecification {
  return ['match', ['geometry-type'], [base, `Multi${base}`], true, false];
}

/** Metres per pixel at the equator at zoom 0: the equator (2π × 6 378 137 m) over MapLibre's 512-pixel world. */
export const METRES_PER_PIXEL_Z0 = (2 * Math.PI * 6_378_137) / 512;
/** MapLibre's zoom range: the metre radius is exact across it. */
const MAX_ZOOM = 24;

/**
 * `heatmap-radius` for a style: its pixels as they are, or metres kept on the ground at every
 * zoom. MapLibre's zoom z draws the world 512 · 2^z CSS pixels wide (512-pixel tiles, unlike
 * the 256 of the classic web-map tables), so in Web Mercator at latitude φ
 *   metres per pixel = 2π · 6378137 · cos φ / (512 · 2^z) ≈ 78271.517 · cos φ / 2^z
 *   pixels = metres · 2^z / (78271.517 · cos φ)
 * which doubles with each zoom level: exactly an `interpolate` with exponential base 2 between
 * zoom 0 and 24. φ is the middle of the layer's extent (0 without one); over a layer spanning
 * many degrees of latitude the ground radius is exact there and approximate elsewhere.
 */
export function heatmapRadius(style: Pick<HeatmapStyle, 'radius' | 'radiusUnits'>, latitude: number): number | ExpressionSpecification {
  if ((style.radiusUnits ?? 'pixels') === 'pixels') return style.radius;
  const lat = Math.min(85, Math.max(-85, latitude));
  const atZoom0 = style.radius / (METRES_PER_PIXEL_Z0 * Math.cos((lat * Math.PI) / 180));
  return ['interpolate', ['exponential', 2], ['zoom'], 0, atZoom0, MAX_ZOOM, atZoom0 * 2 ** MAX_ZOOM];
}

/** Point density as one heatmap layer; the ramp starts transparent so sparse areas stay clear. */
export function compileHeatmapLayers(layer: Layer, sourceId: string, style: HeatmapStyle): LayerSpecification[] {
  const stops = rampStops(style.ramp, style.invert ?? false);
  const [r, g, b] = hexToRgb(stops[0]!);
  const colour = [
    'interpolate',
    ['linear'],
    ['heatmap-density'],
    0,
    `rgba(${r},${g},${b},0)`,
    ...stops.flatMap((c, i) => [round(0.1 + (0.9 * i) / Math.max(1, stops.length - 1)), c]),
  ] as ExpressionSpecification;
  const weight: number | ExpressionSpecification =
    style.weightField && style.weightMax && style.weightMax > 0
      ? ['interpolate', ['linear'], ['to-number', ['get', style.weightField], 0], 0, 0, style.weightMax, 1]
      : 1;
  return [
    {
      id: mapLayerIdFor(layer.id, 'heatmap'),
      type: 'heatmap',
      source: sourceId,
      layout: { visibility: visibility(layer) },
      paint: {
        'heatmap-radius': heatmapRadius(style, middleLatitude(layer)),
        'heatmap-intensity': style.intensity,
        'heatmap-weight': weight,
        'heatmap-color': colour,
        'heatmap-opacity': round(clampOpacity(layer.opacity) * (style.opacity ?? 0.85)),
      },
    },
  ];
}

import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';
import type { BBox, Layer } from '../domain/layer.js';
import { clampOpacity, dataRevision, mapLayerIdFor, sourceIdFor, styleHash, visibility } from './compileShared.js';
import { compileHeatmapLayers, compileVectorLayers } from './compileVector.js';
import { tileFields } from './compileLabels.js';
import { isTiledLayer, VECTOR_TILE_LAYER, VECTOR_TILE_MAX_ZOOM } from './vectorTiles.js';
import { colourOnly, defaultRasterStyle, defaultVectorStyle, isLabelledStyle, isRasterStyle, type RasterStyle } from './styleModel.js';

export { dataRevision, FILL_OPACITY_FACTOR, geometryKindOf, mapLayerIdFor, sourceIdFor, type GeometryKind } from './compileShared.js';
export { compileLabelPoints } from './compileLabels.js';

/**
 * Layer style → MapLibre source and layers. Pure: the renderer's map sync calls it for every
 * project layer and diffs the result into the map, so the same input must give the same output.
 * Only the ids below are stable names other code may rely on (`layer-<id>-<part>`, `src-<id>`).
 */

export interface LayerUrls {
  /** Full URL of a host data path such as `data/layers/ID.geojson` or `tiles/ID/{z}/{x}/{y}.png`. */
  data(path: string): string;
}

export interface CompiledLayerStyle {
  sourceId: string;
  source: SourceSpecification;
  /** Bottom-first: the order they are added to the map. */
  layers: LayerSpecification[];
}

export function compileLayerStyle(layer: Layer, urls: LayerUrls): CompiledLayerStyle {
  // The layer's kind decides what reaches the map. A raster's style is applied by the worker
  // when it renders tiles; a layer holding a style of the other kind (a mismatch main should
  // never store) falls back to the default look rather than failing.
  const style = layer.style;
  if (layer.kind === 'raster') return compileRaster(layer, urls, isRasterStyle(style) ? style : defaultRasterStyle());
  const sourceId = sourceIdFor(layer.id);
  // A table has no geometry: nothing to draw, and no data route to fetch (an empty inline source).
  if (layer.kind === 'table')
    return { sourceId, source: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } }, layers: [] };
  const tiled = isTiledLayer(layer);
  const source = tiled
    ? vectorTileSource(layer, urls)
    : ({ type: 'geojson', data: urls.data(geojsonPath(layer)) } satisfies SourceSpecification);
  const vectorStyle = style.type === 'heatmap' ? style : isLabelledStyle(style) ? style : defaultVectorStyle(0);
  const layers =
    vectorStyle.type === 'heatmap' ? compileHeatmapLayers(layer, sourceId, vectorStyle) : compileVectorLayers(layer, sourceId, vectorStyle);
  // Every style draws the same on tiles: its layers only name the tiles' one source layer.
  return {
    sourceId,
    source,
    layers: tiled ? layers.map((l) => ({ ...l, 'source-layer': VECTOR_TILE_LAYER }) as LayerSpecification) : layers,
  };
}

/**
 * A small layer's one GeoJSON document, `data/layers/ID.geojson`; an edited layer's path names
 * its data revision (`data/layers/ID.r3.geojson`), so an edit or its undo fetches it anew.
 */
export function geojsonPath(layer: Layer): string {
  const revision = dataRevision(layer);
  return `data/layers/${layer.id}${revision ? `.${revision}` : ''}.geojson`;
}

/**
 * A large layer's vector tiles (gis-worker/tiles). The hash of the fields its style reads is
 * part of the path: a restyle that needs other fields fetches tiles that carry them, and an
 * edited layer's data revision follows the hash (`v-HASHr3`), so an edit fetches new tiles.
 */
function vectorTileSource(layer: Layer, urls: LayerUrls): SourceSpecification {
  const bounds = tileBounds(layer.info.extent4326);
  return {
    type: 'vector',
    tiles: [urls.data(`tiles/${layer.id}/v-${styleHash(tileFields(layer.style))}${dataRevision(layer)}/{z}/{x}/{y}.pbf`)],
    maxzoom: VECTOR_TILE_MAX_ZOOM,
    ...(bounds ? { bounds } : {}),
  };
}

function compileRaster(layer: Layer, urls: LayerUrls, style: RasterStyle): CompiledLayerStyle {
  const sourceId = sourceIdFor(layer.id);
  const bounds = tileBounds(layer.info.extent4326);
  // The style's hash is part of the tile path, so a restyled raster is fetched anew rather
  // than served from MapLibre's or the browser's cache. The host ignores that segment. The
  // terrain (compileTerrain.ts) is not part of it: switching it on keeps the colour tiles.
  const source: SourceSpecification = {
    type: 'raster',
    tiles: [urls.data(`tiles/${layer.id}/s-${styleHash(colourOnly(style))}/{z}/{x}/{y}.png`)],
    tileSize: 256,
    ...(bounds ? { bounds } : {}),
  };
  return {
    sourceId,
    source,
    layers: [
      {
        id: mapLayerIdFor(layer.id, 'raster'),
        type: 'raster',
        source: sourceId,
        layout: { visibility: visibility(layer) },
        paint: { 'raster-opacity': clampOpacity(layer.opacity), 'raster-fade-duration': 0 },
      },
    ],
  };
}

const MAX_MERCATOR_LAT = 85.051129;

/** Source bounds stop MapLibre asking for tiles that would be empty; invalid extents are dropped. */
export function tileBounds(extent: BBox | null): [number, number, number, number] | null {
  if (!extent || !extent.every(Number.isFinite)) return null;
  const [w, s, e, n] = extent;
  if (w > e || s > n) return null;
  const clampLon = (v: number) => Math.min(180, Math.max(-180, v));
  const clampLat = (v: number) => Math.min(MAX_MERCATOR_LAT, Math.max(-MAX_MERCATOR_LAT, v));
  return [clampLon(w), clampLat(s), clampLon(e), clampLat(n)];
}

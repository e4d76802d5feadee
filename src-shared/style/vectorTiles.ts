import type { Layer } from '../domain/layer.js';

/**
 * When a vector layer goes to the map as vector tiles rather than one GeoJSON document, and
 * what the tiles carry. The numbers here are the limits the README, the layer panel and the
 * model are told (`tiledLayerNote` words them).
 */

/** Layers with more features than this (or an unknown count) are drawn from vector tiles. */
export const TILED_ABOVE_FEATURES = 50_000;
/** Tiles are made up to this zoom; MapLibre over-zooms the last level beyond it. */
export const VECTOR_TILE_MAX_ZOOM = 16;
/**
 * Features a tile holds at most. Past it the worker thins the tile (gis-worker/tiles/tileQuery.ts):
 * one feature per cell of a THIN_GRID × THIN_GRID grid, or a regular sample by feature id.
 */
export const THIN_GRID = 96;
export const TILE_FEATURE_CAP = THIN_GRID * THIN_GRID;
/** The one layer name inside every tile (MapLibre's `source-layer`). */
export const VECTOR_TILE_LAYER = 'features';

export function isTiledLayer(layer: Pick<Layer, 'kind' | 'info'>): boolean {
  if (layer.kind !== 'vector') return false;
  const n = layer.info.featureCount;
  return n === null || n > TILED_ABOVE_FEATURES;
}

/** What a person and the model are told about a tiled layer: where the map simplifies. */
export function tiledLayerNote(featureCount: number | null): string {
  const count = featureCount === null ? 'an unknown number of' : featureCount.toLocaleString('en-US');
  return (
    `Drawn as vector tiles (more than ${TILED_ABOVE_FEATURES.toLocaleString('en-US')} features: ${count}). ` +
    `Each tile shows at most ${TILE_FEATURE_CAP.toLocaleString('en-US')} features: where more fall in one (zoomed out), a regular sample ` +
    'or one feature per small grid cell is drawn, so zoom in to see every feature; analysis and the attribute table always use all of them.'
  );
}

/** The same for a PostGIS table (issue 16): its server makes the tiles, thinned the same way. */
export function serverTilesNote(featureCount: number | null): string {
  const count = featureCount === null ? 'an unknown number of' : featureCount.toLocaleString('en-US');
  return (
    `Drawn as vector tiles made by the PostGIS server (${count} features; nothing is copied to this machine). ` +
    `Each tile shows at most ${TILE_FEATURE_CAP.toLocaleString('en-US')} features (one per small grid cell when zoomed out); ` +
    'analysis and the attribute table always use all of them.'
  );
}

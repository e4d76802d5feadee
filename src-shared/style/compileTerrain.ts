import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';
import type { Layer } from '../domain/layer.js';
import { clampOpacity, dataRevision, mapLayerIdFor, round, visibility } from './compileShared.js';
import { tileBounds } from './compileLayerStyle.js';
import { isRasterStyle, type TerrainSettings } from './styleModel.js';

/**
 * A DEM layer's terrain (its style's `terrain`) → a MapLibre raster-dem source, an optional
 * hillshade layer drawn from it, and the `setTerrain` the map applies. Pure, like the other
 * compilers; the renderer's layer sync adds the entry and sets the terrain.
 */

/** The tiles are Terrarium-encoded (see gis-worker/renderDemTile.ts). */
export const DEM_ENCODING = 'terrarium';
/** Past this zoom MapLibre over-zooms the DEM tiles: a DEM is rarely finer than ~10 m. */
export const DEM_MAX_ZOOM = 14;

export interface CompiledTerrain {
  sourceId: string;
  source: SourceSpecification;
  /** The hillshade layer, when asked for; else none. */
  layers: LayerSpecification[];
  /** What `map.setTerrain` gets. */
  terrain: { source: string; exaggeration: number };
  pitch: number;
}

/** The layer's terrain settings, when it is a raster that carries them. */
export function terrainSettingsOf(layer: Layer): TerrainSettings | null {
  return layer.kind === 'raster' && isRasterStyle(layer.style) && layer.style.terrain ? layer.style.terrain : null;
}

/**
 * Host path template of a layer's elevation tiles: `tiles/ID/dem[rN]/{z}/{x}/{y}.png` (the data
 * revision, as elsewhere, only busts caches).
 */
export function demTilePath(layer: Pick<Layer, 'id' | 'editing'>): string {
  return `tiles/${layer.id}/dem${dataRevision(layer)}/{z}/{x}/{y}.png`;
}

export function compileTerrain(layer: Layer, urls: { data(path: string): string }): CompiledTerrain | null {
  const settings = terrainSettingsOf(layer);
  if (!settings) return null;
  const sourceId = `src-${layer.id}-dem`;
  const bounds = tileBounds(layer.info.extent4326);
  const source: SourceSpecification = {
    type: 'raster-dem',
    tiles: [urls.data(demTilePath(layer))],
    tileSize: 256,
    encoding: DEM_ENCODING,
    maxzoom: DEM_MAX_ZOOM,
    ...(bounds ? { bounds } : {}),
  };
  const layers: LayerSpecification[] = settings.hillshade
    ? [
        {
          id: mapLayerIdFor(layer.id, 'hillshade'),
          type: 'hillshade',
          source: sourceId,
          layout: { visibility: visibility(layer) },
          paint: { 'hillshade-exaggeration': round(0.5 * clampOpacity(layer.opacity)) },
        },
      ]
    : [];
  return { sourceId, source, layers, terrain: { source: sourceId, exaggeration: settings.exaggeration }, pitch: settings.pitch };
}

/**
 * The one terrain the map shows: of the visible layers carrying one, the topmost (MapLibre has
 * a single terrain). `layers` are bottom-first.
 */
export function activeTerrain(layers: readonly Layer[], urls: { data(path: string): string }): CompiledTerrain | null {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!;
    if (!layer.visible) continue;
    const compiled = compileTerrain(layer, urls);
    if (compiled) return compiled;
  }
  return null;
}

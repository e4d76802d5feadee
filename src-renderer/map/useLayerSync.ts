import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import type { Layer } from '../../src-shared/domain/layer.js';
import {
  compileLabelPoints,
  compileLayerStyle,
  type CompiledLayerStyle,
  type LayerUrls,
} from '../../src-shared/style/compileLayerStyle.js';
import { activeTerrain } from '../../src-shared/style/compileTerrain.js';
import { applyTerrain, type AppliedTerrain } from './applyTerrain.js';
import { syncLayers, type DesiredLayer } from './syncLayers.js';

/**
 * Diffs the store's layers (bottom-first) into the map whenever either changes. Store → map
 * only: nothing the map does writes back, so there is no echo to guard against.
 */
export function useLayerSync(map: MapLibreMap | null, layers: readonly Layer[], urls: LayerUrls | null): void {
  const applied = useRef<{ map: MapLibreMap | null; layers: Map<string, CompiledLayerStyle>; terrain: AppliedTerrain }>({
    map: null,
    layers: new Map(),
    terrain: null,
  });

  useEffect(() => {
    if (!map || !urls) return;
    // A new map instance starts from the bare basemap: forget what the last one showed.
    if (applied.current.map !== map) applied.current = { map, layers: new Map(), terrain: null };
    const terrain = activeTerrain(layers, urls);
    const desired: DesiredLayer[] = [];
    for (const layer of layers) {
      desired.push({ layerId: layer.id, compiled: compileLayerStyle(layer, urls) });
      // The terrain's DEM source (and its optional hillshade) sits just above its own layer.
      if (terrain?.sourceId === `src-${layer.id}-dem`) desired.push({ layerId: `${layer.id}:terrain`, compiled: terrain });
    }
    // Polygon label points are entries of their own, above every layer (labels are never covered).
    for (const layer of layers) {
      const labels = compileLabelPoints(layer, urls);
      if (labels) desired.push({ layerId: `${layer.id}:labels`, compiled: labels });
    }
    applied.current.layers = syncLayers(map, applied.current.layers, desired);
    applied.current.terrain = applyTerrain(map, applied.current.terrain, terrain);
  }, [map, layers, urls]);
}

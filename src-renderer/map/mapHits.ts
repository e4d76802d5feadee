import type { Layer } from '../../src-shared/domain/layer.js';
import { mapLayerIdFor } from '../../src-shared/style/compileShared.js';

/**
 * Which project features lie under the cursor or a box, from MapLibre's rendered features.
 * Every vector feature carries its source fid as the MapLibre feature id and sits in a map
 * layer named `layer-<projectLayerId>-<part>` (compileShared), so both are read back here.
 */

/** The part of a rendered feature this module reads (MapLibre's MapGeoJSONFeature has it). */
export interface RenderedFeature {
  id?: string | number | undefined;
  layer: { id: string };
}

/** One project layer's features under the cursor: fids topmost first. */
export interface Hit {
  layerId: string;
  fids: number[];
}

/** Parts with features a person points at (labels, heatmaps and rasters are not features). */
const POINT_PARTS = ['fill', 'line', 'circle'] as const;
/**
 * Thin parts are also found a few pixels away. Polygon outlines are not: near a border the
 * neighbouring polygon's outline would win over the polygon actually clicked.
 */
const NEAR_PARTS = ['line', 'circle'] as const;

const MAP_LAYER_ID = /^layer-(.+)-(fill|line|circle)$/;

/** The project layer id of a feature's map layer, or null for other layers (basemap, labels, selection). */
export function projectLayerOf(mapLayerId: string): string | null {
  return MAP_LAYER_ID.exec(mapLayerId)?.[1] ?? null;
}

/** Map layer ids to query: visible vector layers' parts that exist on the map now. */
export function queryLayerIds(layers: readonly Layer[], onMap: (id: string) => boolean): { point: string[]; near: string[] } {
  const ids = (parts: readonly (typeof POINT_PARTS)[number][]) =>
    layers
      .filter((l) => l.kind === 'vector' && l.visible)
      .flatMap((l) => parts.map((p) => mapLayerIdFor(l.id, p)))
      .filter(onMap);
  return { point: ids(POINT_PARTS), near: ids(NEAR_PARTS) };
}

/**
 * Rendered features (of one or more queries) → hits per project layer, topmost layer first.
 * `layerOrder` is the map's bottom-first layer order; features keep their order within a layer
 * (MapLibre lists the one drawn on top first). Ids that are not integers are not fids: skipped.
 */
export function groupHits(features: readonly RenderedFeature[], layerOrder: readonly string[], known: ReadonlySet<string>): Hit[] {
  const rank = new Map(layerOrder.map((id, i) => [id, i]));
  const sorted = features.map((f, i) => ({ f, i, rank: rank.get(f.layer.id) ?? -1 })).sort((a, b) => b.rank - a.rank || a.i - b.i);
  const hits = new Map<string, Hit>();
  for (const { f } of sorted) {
    const layerId = projectLayerOf(f.layer.id);
    if (!layerId || !known.has(layerId) || typeof f.id !== 'number' || !Number.isInteger(f.id)) continue;
    let hit = hits.get(layerId);
    if (!hit) hits.set(layerId, (hit = { layerId, fids: [] }));
    if (!hit.fids.includes(f.id)) hit.fids.push(f.id);
  }
  return [...hits.values()];
}

/**
 * The layer a box selection applies to (one layer is selected at a time): the layer the table
 * shows, else the layer already selected, else the topmost one in the box.
 */
export function boxSelectionTarget(hits: readonly Hit[], preferred: readonly (string | null)[]): Hit | null {
  for (const id of preferred) {
    const hit = id ? hits.find((h) => h.layerId === id) : undefined;
    if (hit) return hit;
  }
  return hits[0] ?? null;
}

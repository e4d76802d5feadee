import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';
import type { CompiledLayerStyle } from '../../src-shared/style/compileLayerStyle.js';

/** The slice of MapLibre's `Map` the sync uses, so it can be tested against a fake. */
export interface SyncTarget {
  getLayer(id: string): unknown;
  getSource(id: string): unknown;
  addSource(id: string, source: SourceSpecification): unknown;
  removeSource(id: string): unknown;
  addLayer(layer: LayerSpecification): unknown;
  removeLayer(id: string): unknown;
  moveLayer(id: string): unknown;
  setPaintProperty(layerId: string, name: string, value: unknown): unknown;
  setLayoutProperty(layerId: string, name: string, value: unknown): unknown;
  getLayersOrder(): string[];
}

/** What the map currently shows, by project layer id. */
export type AppliedLayers = ReadonlyMap<string, CompiledLayerStyle>;

export interface DesiredLayer {
  layerId: string;
  compiled: CompiledLayerStyle;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Props = Record<string, unknown>;

/** Everything but paint and layout: a change there means the layer is rebuilt. */
function structure(spec: LayerSpecification): unknown {
  const { paint: _paint, layout: _layout, ...rest } = spec as LayerSpecification & { paint?: unknown; layout?: unknown };
  return rest;
}

function diffProps(before: Props | undefined, after: Props | undefined, apply: (name: string, value: unknown) => void): void {
  const b = before ?? {};
  const a = after ?? {};
  for (const name of new Set([...Object.keys(b), ...Object.keys(a)])) {
    // undefined resets a property MapLibre no longer gets to its default
    if (!same(b[name], a[name])) apply(name, a[name]);
  }
}

function removeAll(map: SyncTarget, compiled: CompiledLayerStyle): void {
  // Layers first: MapLibre refuses to remove a source that layers still use.
  for (const layer of compiled.layers) if (map.getLayer(layer.id)) map.removeLayer(layer.id);
  if (map.getSource(compiled.sourceId)) map.removeSource(compiled.sourceId);
}

function addAll(map: SyncTarget, compiled: CompiledLayerStyle): void {
  if (!map.getSource(compiled.sourceId)) map.addSource(compiled.sourceId, compiled.source);
  for (const layer of compiled.layers) if (!map.getLayer(layer.id)) map.addLayer(layer);
}

function updateInPlace(map: SyncTarget, before: CompiledLayerStyle, after: CompiledLayerStyle): void {
  const old = new Map(before.layers.map((l) => [l.id, l]));
  const wanted = new Set(after.layers.map((l) => l.id));
  for (const layer of before.layers) if (!wanted.has(layer.id) && map.getLayer(layer.id)) map.removeLayer(layer.id);
  for (const layer of after.layers) {
    const previous = old.get(layer.id);
    if (previous && map.getLayer(layer.id) && same(structure(previous), structure(layer))) {
      const p = previous as { paint?: Props; layout?: Props };
      const n = layer as { paint?: Props; layout?: Props };
      diffProps(p.paint, n.paint, (name, value) => map.setPaintProperty(layer.id, name, value));
      diffProps(p.layout, n.layout, (name, value) => map.setLayoutProperty(layer.id, name, value));
    } else {
      if (map.getLayer(layer.id)) map.removeLayer(layer.id);
      map.addLayer(layer);
    }
  }
}

/**
 * One-way sync of project layers into the map (store → map, never back). Returns what is
 * applied now. `desired` is bottom-first; the app's layers end up above everything already in
 * the style (the basemap) in that order. A layer that fails to apply is logged and skipped so
 * one bad layer never blanks the others.
 */
export function syncLayers(map: SyncTarget, applied: AppliedLayers, desired: readonly DesiredLayer[]): Map<string, CompiledLayerStyle> {
  const next = new Map<string, CompiledLayerStyle>();
  const wantedIds = new Set(desired.map((d) => d.layerId));

  for (const [layerId, compiled] of applied) {
    if (wantedIds.has(layerId)) continue;
    try {
      removeAll(map, compiled);
    } catch (error) {
      console.error(`[map] could not remove layer ${layerId}`, error);
    }
  }

  for (const { layerId, compiled } of desired) {
    const before = applied.get(layerId);
    try {
      if (!before) {
        addAll(map, compiled);
      } else if (before.sourceId !== compiled.sourceId || !same(before.source, compiled.source) || !map.getSource(compiled.sourceId)) {
        removeAll(map, before);
        addAll(map, compiled);
      } else {
        updateInPlace(map, before, compiled);
      }
      next.set(layerId, compiled);
    } catch (error) {
      console.error(`[map] could not apply layer ${layerId}`, error);
    }
  }

  const order = [...next.values()].flatMap((c) => c.layers.map((l) => l.id));
  const ours = new Set(order);
  const current = map.getLayersOrder();
  const firstOurs = current.findIndex((id) => ours.has(id));
  const tail = firstOurs < 0 ? [] : current.slice(firstOurs);
  // Already in order and on top of everything else: nothing to move (the common case).
  if (!same(tail, order)) for (const id of order) map.moveLayer(id);
  return next;
}

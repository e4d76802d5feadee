import type { Page } from 'playwright-core';

/**
 * The part of MapLibre's map the drivers use, as the page exposes it for tests
 * (`window.__mapwright.map`, set by src-renderer/components/MapView.tsx once the map loads).
 * Only the drivers reach it, through `onMap`; specs speak in driver verbs.
 */
export interface MapHandle {
  loaded(): boolean;
  areTilesLoaded(): boolean;
  isMoving(): boolean;
  getZoom(): number;
  getCenter(): { lng: number; lat: number };
  /** Returns the map itself: never return it from a map function (it would be serialised back). */
  jumpTo(options: { center?: [number, number]; zoom?: number }): MapHandle;
  fitBounds(bounds: [[number, number], [number, number]], options?: { padding?: number; duration?: number; maxZoom?: number }): MapHandle;
  project(lngLat: [number, number]): { x: number; y: number };
  getStyle(): {
    layers: { id: string; type: string; source?: string }[];
    sources: Record<string, { type: string; tiles?: string[] }>;
  };
  getSource(id: string): { getData?(): Promise<{ features: { id?: number | string; properties: Record<string, unknown> }[] }> } | undefined;
  /** The 3D terrain set with `setTerrain`, or null. */
  getTerrain(): { source: string; exaggeration?: number } | null;
  getPitch(): number;
  getPaintProperty(layerId: string, name: string): unknown;
  queryRenderedFeatures(options?: {
    layers?: string[];
  }): { id?: number | string; properties: Record<string, unknown>; layer: { id: string } }[];
}

/**
 * A function run against the map in the page. It is sent as its source text, so it may use
 * only `map`, `arg` (JSON) and browser globals — and must define no named inner functions
 * (tsx wraps those in a `__name` helper the page does not have). Its result comes back as
 * JSON: return plain data, never the map.
 */
export type MapFunction<A, T> = (map: MapHandle, arg: A) => T | Promise<T>;

/**
 * Runs `fn(map, arg)` in the page and returns its (serialisable) result. The whole call is one
 * expression that Playwright evaluates: the page's CSP forbids `eval`, so the function cannot
 * be rebuilt from its text by code inside the page (`new Function` there fails).
 */
export function onMap<T, A = undefined>(page: Page, fn: MapFunction<A, T>, arg?: A): Promise<T> {
  return page.evaluate(`(() => {
    const map = window.__mapwright && window.__mapwright.map;
    if (!map) throw new Error('the map is not loaded (window.__mapwright.map is absent)');
    return (${fn.toString()})(map, ${JSON.stringify(arg) ?? 'undefined'});
  })()`) as Promise<T>;
}

import type { CompiledTerrain } from '../../src-shared/style/compileTerrain.js';

/** The slice of MapLibre's `Map` the terrain needs, so it can be tested against a fake. */
export interface TerrainTarget {
  getSource(id: string): unknown;
  setTerrain(options: { source: string; exaggeration: number } | null): unknown;
  getPitch(): number;
  getMaxPitch(): number;
  setMaxPitch(pitch: number): unknown;
  easeTo(options: { pitch: number; duration?: number }): unknown;
}

/** What was applied last: the terrain's source, exaggeration and pitch, or null. */
export type AppliedTerrain = { source: string; exaggeration: number; pitch: number } | null;

/**
 * Sets (or clears) the map's one terrain after the layer sync has added its raster-dem source,
 * and tilts the view when a terrain comes on (or its pitch changes): flat ground seen from
 * straight above looks the same with or without it. When the terrain goes off the view levels.
 * Only changes are applied, so a person's own tilt is kept while nothing changes.
 */
export function applyTerrain(map: TerrainTarget, applied: AppliedTerrain, wanted: CompiledTerrain | null): AppliedTerrain {
  const next: AppliedTerrain = wanted ? { ...wanted.terrain, pitch: wanted.pitch } : null;
  if (JSON.stringify(next) === JSON.stringify(applied)) return applied;
  try {
    if (!next || !map.getSource(next.source)) {
      map.setTerrain(null);
      if (applied && map.getPitch() > 0) map.easeTo({ pitch: 0, duration: 500 });
      return null;
    }
    map.setTerrain({ source: next.source, exaggeration: next.exaggeration });
    // MapLibre stops at 60° unless told otherwise; the tool allows up to 85°.
    if (map.getMaxPitch() < next.pitch) map.setMaxPitch(next.pitch);
    // A terrain already on when the map opens keeps the view the project saved, tilt included.
    const tilt = applied ? applied.pitch !== next.pitch || applied.source !== next.source : map.getPitch() === 0;
    if (tilt) map.easeTo({ pitch: next.pitch, duration: 500 });
    return next;
  } catch (error) {
    console.error('[map] could not apply the terrain', error);
    return null;
  }
}

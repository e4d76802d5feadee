import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { LonLat } from '../map/measureGeodesic.js';

export type MeasureMode = 'distance' | 'area';

export interface MeasureState {
  /** The measure tool is on: it owns the map's clicks (selection and identify stand aside). */
  active: boolean;
  mode: MeasureMode;
  /** The clicked vertices, [lon, lat]. */
  points: LonLat[];
  /** Double-click or Enter ended this measurement; the next click starts a new one. */
  finished: boolean;
  setActive(active: boolean): void;
  setMode(mode: MeasureMode): void;
  addPoint(point: LonLat): void;
  finish(): void;
  clear(): void;
}

const EMPTY = { points: [] as LonLat[], finished: false };

/** The measure tool (issue #15): what the person is measuring, in the page only (never saved). */
export const measureStore = createStore<MeasureState>()((set, get) => ({
  active: false,
  mode: 'distance',
  ...EMPTY,
  setActive: (active) => set({ active, ...EMPTY }),
  setMode: (mode) => set({ mode, ...EMPTY }),
  addPoint: (point) => set((s) => ({ points: s.finished ? [point] : [...s.points, point], finished: false })),
  finish: () => {
    const { mode, points } = get();
    // A line needs two points, an area three: fewer is not a measurement to keep.
    if (points.length >= (mode === 'area' ? 3 : 2)) set({ finished: true });
  },
  clear: () => set(EMPTY),
}));

export function useMeasure<T>(selector: (state: MeasureState) => T): T {
  return useStore(measureStore, selector);
}

/** True while the measure tool owns the map's clicks. */
export function measureActive(): boolean {
  return measureStore.getState().active;
}

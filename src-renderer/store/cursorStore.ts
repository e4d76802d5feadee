import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface CursorState {
  /** The map position under the mouse, [lon, lat]; null when the mouse is off the map. */
  at: [number, number] | null;
  set(at: [number, number] | null): void;
}

/** Where the mouse is on the map, for the status bar's coordinate readout (useCursorPosition). */
export const cursorStore = createStore<CursorState>()((set) => ({
  at: null,
  set: (at) => set({ at }),
}));

export function useCursor<T>(selector: (state: CursorState) => T): T {
  return useStore(cursorStore, selector);
}

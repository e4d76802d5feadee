import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface StylePanelState {
  /** The layer the style panel edits, or null when it is closed. */
  layerId: string | null;
  open(layerId: string): void;
  close(): void;
}

/** Which layer the style panel was opened for (a layer item opens it; the panel closes it). */
export const stylePanelStore = createStore<StylePanelState>()((set) => ({
  layerId: null,
  open: (layerId) => set({ layerId }),
  close: () => set({ layerId: null }),
}));

export function useStylePanel<T>(selector: (state: StylePanelState) => T): T {
  return useStore(stylePanelStore, selector);
}

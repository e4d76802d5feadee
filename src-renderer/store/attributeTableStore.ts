import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface AttributeTableState {
  /** The layer the docked table shows, or null when it is closed. */
  layerId: string | null;
  open(layerId: string): void;
  close(): void;
}

/** Which layer the attribute table was opened for (the layer panel opens it; the table closes it). */
export const attributeTableStore = createStore<AttributeTableState>()((set) => ({
  layerId: null,
  open: (layerId) => set({ layerId }),
  close: () => set({ layerId: null }),
}));

export function useAttributeTable<T>(selector: (state: AttributeTableState) => T): T {
  return useStore(attributeTableStore, selector);
}

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BBox } from '../../src-shared/domain/layer.js';

/** Where a selection change came from: the table scrolls to what was picked on the map. */
export type SelectionOrigin = 'table' | 'map';

/** The map highlight of the selection, as far as `layers/features` has resolved it. */
export interface SelectionHighlight {
  loading: boolean;
  /** Features drawn (the first MAX_FEATURES_BY_ID of the selection). */
  shown: number;
  /** True when the selection has more features than the highlight draws. */
  capped: boolean;
  bbox: BBox | null;
  error: string | null;
}

export interface SelectionState {
  /** One layer at a time: selecting in another layer replaces the selection. */
  layerId: string | null;
  fids: ReadonlySet<number>;
  /** The last row or feature clicked alone or with ctrl: where a shift-click range starts. */
  anchor: number | null;
  origin: SelectionOrigin | null;
  highlight: SelectionHighlight | null;
  /** Replaces the selection (same or another layer). */
  select(layerId: string, fids: Iterable<number>, origin: SelectionOrigin, anchor?: number | null): void;
  /** Adds to the selection of this layer (or starts one on another layer). */
  add(layerId: string, fids: Iterable<number>, origin: SelectionOrigin): void;
  /** Ctrl/cmd-click: in or out of this layer's selection. */
  toggle(layerId: string, fid: number, origin: SelectionOrigin): void;
  clear(): void;
  setHighlight(highlight: SelectionHighlight | null): void;
}

const EMPTY: ReadonlySet<number> = new Set();

export function createSelectionStore(): StoreApi<SelectionState> {
  return createStore<SelectionState>()((set, get) => ({
    layerId: null,
    fids: EMPTY,
    anchor: null,
    origin: null,
    highlight: null,
    select: (layerId, fids, origin, anchor = null) => {
      const next = new Set(fids);
      set({ layerId: next.size ? layerId : null, fids: next.size ? next : EMPTY, origin, anchor: next.size ? anchor : null });
    },
    add: (layerId, fids, origin) => {
      const s = get();
      const next = new Set(s.layerId === layerId ? s.fids : EMPTY);
      for (const fid of fids) next.add(fid);
      if (next.size === 0) return;
      set({ layerId, fids: next, origin, anchor: s.layerId === layerId ? s.anchor : null });
    },
    toggle: (layerId, fid, origin) => {
      const s = get();
      const next = new Set(s.layerId === layerId ? s.fids : EMPTY);
      if (next.has(fid)) next.delete(fid);
      else next.add(fid);
      set({ layerId: next.size ? layerId : null, fids: next.size ? next : EMPTY, origin, anchor: next.size ? fid : null });
    },
    clear: () => {
      if (get().layerId === null) return;
      set({ layerId: null, fids: EMPTY, anchor: null, origin: null });
    },
    setHighlight: (highlight) => set({ highlight }),
  }));
}

/** The page's one selection (table ⇄ map ⇄ `map.selection`). */
export const selectionStore = createSelectionStore();

export function useSelection<T>(selector: (state: SelectionState) => T): T {
  return useStore(selectionStore, selector);
}

/** Drops the selection when its layer has left the project (removed, undone). */
export function pruneSelection(store: StoreApi<SelectionState>, layerIds: ReadonlySet<string>): void {
  const { layerId } = store.getState();
  if (layerId !== null && !layerIds.has(layerId)) store.getState().clear();
}

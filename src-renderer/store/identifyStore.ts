import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { FeatureById } from '../../src-shared/bridge/attributeContract.js';

/** One layer's features under the clicked point, with every attribute (from `layers/features`). */
export interface IdentifySection {
  layerId: string;
  layerName: string;
  features: FeatureById[];
  /** Features under the point beyond those listed. */
  more: number;
  error: string | null;
}

export interface IdentifyState {
  /** Where the person clicked ([lon, lat]); null when the popup is closed. */
  at: [number, number] | null;
  loading: boolean;
  /** Topmost layer first. */
  sections: IdentifySection[];
  /** Bumped by every click, so a slow answer to an earlier click is dropped. */
  seq: number;
  start(at: [number, number]): number;
  finish(seq: number, sections: IdentifySection[]): void;
  close(): void;
}

/** The identify popup's content: what lies under the last plain click on the map. */
export const identifyStore = createStore<IdentifyState>()((set, get) => ({
  at: null,
  loading: false,
  sections: [],
  seq: 0,
  start: (at) => {
    const seq = get().seq + 1;
    set({ at, loading: true, sections: [], seq });
    return seq;
  },
  finish: (seq, sections) => {
    if (seq === get().seq && get().at) set({ loading: false, sections });
  },
  close: () => set((s) => ({ at: null, loading: false, sections: [], seq: s.seq + 1 })),
}));

export function useIdentify<T>(selector: (state: IdentifyState) => T): T {
  return useStore(identifyStore, selector);
}

import type { BBox } from '../../../src-shared/domain/layer.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface FitRequest {
  /** Increases with every request, so asking twice for the same box fits twice. */
  seq: number;
  bbox: BBox;
  /** False jumps: the first layer of an empty project sets the view at once, with no flight through other zooms. */
  animate: boolean;
}

export interface MapSlice {
  fitRequest: FitRequest | null;
  requestFit(bbox: BBox, options?: { animate?: boolean }): void;
}

export const createMapSlice: SliceCreator<MapSlice> = (set) => ({
  fitRequest: null,
  requestFit: (bbox, options) =>
    set((s) => ({ fitRequest: { seq: (s.fitRequest?.seq ?? 0) + 1, bbox, animate: options?.animate ?? true } }), false, 'map/requestFit'),
});

export const selectFitRequest = (s: AppState) => s.fitRequest;

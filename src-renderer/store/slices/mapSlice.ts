import type { BBox } from '../../../src-shared/domain/layer.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface FitRequest {
  /** Increases with every request, so asking twice for the same box fits twice. */
  seq: number;
  bbox: BBox;
}

export interface MapSlice {
  fitRequest: FitRequest | null;
  requestFit(bbox: BBox): void;
}

export const createMapSlice: SliceCreator<MapSlice> = (set) => ({
  fitRequest: null,
  requestFit: (bbox) =>
    set((s) => ({ fitRequest: { seq: (s.fitRequest?.seq ?? 0) + 1, bbox } }), false, 'map/requestFit'),
});

export const selectFitRequest = (s: AppState) => s.fitRequest;

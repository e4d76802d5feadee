import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/**
 * What the person does on the map while editing: draw a new point, line or polygon, reshape
 * the selected feature, or nothing yet (`idle`). Anything but `idle` owns the map's clicks,
 * so map selection and identify stand aside (map/useMapSelection.ts).
 */
export type EditTool = 'idle' | 'point' | 'linestring' | 'polygon' | 'reshape';

export interface EditSessionState {
  /** The layer the GUI edits (the layer panel's "Edit" toggle), or null: no toolbar. */
  layerId: string | null;
  tool: EditTool;
  /** A call to main is under way; the toolbar waits. */
  busy: boolean;
  /** The last failure, shown next to the toolbar until the next action. */
  error: string | null;
  /** Another target (or none) starts idle and without an error. */
  setTarget(layerId: string | null): void;
  setTool(tool: EditTool): void;
  setBusy(busy: boolean): void;
  setError(error: string | null): void;
}

/** The page's one editing session (the layer panel sets its target, the map toolbar works in it). */
export const editSessionStore = createStore<EditSessionState>()((set) => ({
  layerId: null,
  tool: 'idle',
  busy: false,
  error: null,
  setTarget: (layerId) => set({ layerId, tool: 'idle', busy: false, error: null }),
  setTool: (tool) => set({ tool, error: null }),
  setBusy: (busy) => set({ busy }),
  setError: (error) => set({ error }),
}));

export function useEditSession<T>(selector: (state: EditSessionState) => T): T {
  return useStore(editSessionStore, selector);
}

/** True while a drawing or reshaping tool owns the map's clicks. */
export function editToolActive(): boolean {
  return editSessionStore.getState().tool !== 'idle';
}

import type { Memory } from '../../../src-shared/domain/memory.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

/**
 * The Memory panel (issue 17): the person's memories and the open project's, as main last sent
 * them (`memory/list` when the panel opens, the whole list again on `memory/changed`). Main
 * owns them; the renderer shows them and asks main to edit or delete.
 */
export interface MemorySlice {
  memories: Memory[];
  /** False until the first list arrives: the panel says "Loading…" meanwhile. */
  memoriesLoaded: boolean;
  /** Why the list could not be loaded, or why an edit or delete was refused; null when none. */
  memoryError: string | null;
  memoryOpen: boolean;
  setMemories(memories: Memory[]): void;
  memoryFailed(message: string): void;
  setMemoryOpen(open: boolean): void;
}

export const createMemorySlice: SliceCreator<MemorySlice> = (set) => ({
  memories: [],
  memoriesLoaded: false,
  memoryError: null,
  memoryOpen: false,
  setMemories: (memories) => set({ memories, memoriesLoaded: true, memoryError: null }, false, 'memory/changed'),
  memoryFailed: (memoryError) => set({ memoryError }, false, 'memory/failed'),
  // One drawer at a time on the right: opening this one closes the audit log and the plugins.
  setMemoryOpen: (memoryOpen) =>
    set(
      memoryOpen ? { memoryOpen, auditOpen: false, pluginsOpen: false } : { memoryOpen },
      false,
      memoryOpen ? 'memory/opened' : 'memory/closed',
    ),
});

export const selectMemories = (s: AppState) => s.memories;
export const selectMemoriesLoaded = (s: AppState) => s.memoriesLoaded;
export const selectMemoryError = (s: AppState) => s.memoryError;
export const selectMemoryOpen = (s: AppState) => s.memoryOpen;

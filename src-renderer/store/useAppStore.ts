import { useStore } from 'zustand';
import { appStore, type AppState } from './appStore.js';

/** Components subscribe through a selector, never to the whole state. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}

import { devtools } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createAnnotationsSlice } from './slices/annotationsSlice.js';
import { createAppInfoSlice } from './slices/appInfoSlice.js';
import { createApprovalsSlice } from './slices/approvalsSlice.js';
import { createAuditSlice } from './slices/auditSlice.js';
import { createChatSlice } from './slices/chatSlice.js';
import { createConversationsSlice } from './slices/conversationsSlice.js';
import { createLayersSlice } from './slices/layersSlice.js';
import { createMapSlice } from './slices/mapSlice.js';
import { createMemorySlice } from './slices/memorySlice.js';
import { createPluginsSlice } from './slices/pluginsSlice.js';
import { createPolicySlice } from './slices/policySlice.js';
import { createProgressSlice } from './slices/progressSlice.js';
import { createReasoningSlice } from './slices/reasoningSlice.js';
import { createRunSlice } from './slices/runSlice.js';
import { createSettingsSlice } from './slices/settingsSlice.js';
import type { AppState } from './storeTypes.js';

export type { AppState } from './storeTypes.js';
export type AppStore = StoreApi<AppState>;

/** A fresh store (tests make their own); the app uses the `appStore` singleton. */
export function createAppStore(): AppStore {
  return createStore<AppState>()(
    devtools(
      (...a) => ({
        ...createAppInfoSlice(...a),
        ...createLayersSlice(...a),
        ...createChatSlice(...a),
        ...createRunSlice(...a),
        ...createApprovalsSlice(...a),
        ...createMapSlice(...a),
        ...createConversationsSlice(...a),
        ...createPolicySlice(...a),
        ...createProgressSlice(...a),
        ...createAuditSlice(...a),
        ...createSettingsSlice(...a),
        ...createReasoningSlice(...a),
        ...createPluginsSlice(...a),
        ...createAnnotationsSlice(...a),
        ...createMemorySlice(...a),
      }),
      // Off unless the Redux DevTools extension is there: no console noise in the shipped app.
      { name: 'mapwright', enabled: typeof window !== 'undefined' && '__REDUX_DEVTOOLS_EXTENSION__' in window },
    ),
  );
}

export const appStore = createAppStore();

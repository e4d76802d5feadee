import type { StateCreator } from 'zustand/vanilla';
import type { AnnotationsSlice } from './slices/annotationsSlice.js';
import type { AppInfoSlice } from './slices/appInfoSlice.js';
import type { ApprovalsSlice } from './slices/approvalsSlice.js';
import type { AuditSlice } from './slices/auditSlice.js';
import type { ChatSlice } from './slices/chatSlice.js';
import type { ConversationsSlice } from './slices/conversationsSlice.js';
import type { LayersSlice } from './slices/layersSlice.js';
import type { MapSlice } from './slices/mapSlice.js';
import type { MemorySlice } from './slices/memorySlice.js';
import type { PluginsSlice } from './slices/pluginsSlice.js';
import type { PolicySlice } from './slices/policySlice.js';
import type { ProgressSlice } from './slices/progressSlice.js';
import type { RunSlice } from './slices/runSlice.js';
import type { ReasoningSlice } from './slices/reasoningSlice.js';
import type { SettingsSlice } from './slices/settingsSlice.js';

export type AppState = AppInfoSlice &
  LayersSlice &
  ChatSlice &
  RunSlice &
  ApprovalsSlice &
  MapSlice &
  ConversationsSlice &
  // The tool layer (issue 3): approval mode and undo, call progress, the audit panel.
  PolicySlice &
  ProgressSlice &
  AuditSlice &
  // Model settings and live reasoning (issue 5).
  SettingsSlice &
  ReasoningSlice &
  // The Plugins panel (issue 12).
  PluginsSlice &
  // The annotation layer (issue 14).
  AnnotationsSlice &
  // The Memory panel (issue 17).
  MemorySlice;

/** A slice sees the whole state and names every action (`set(…, false, 'chat/appendDelta')`). */
export type SliceCreator<Slice> = StateCreator<AppState, [['zustand/devtools', never]], [], Slice>;

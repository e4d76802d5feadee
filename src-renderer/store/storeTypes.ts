import type { StateCreator } from 'zustand/vanilla';
import type { AppInfoSlice } from './slices/appInfoSlice.js';
import type { ApprovalsSlice } from './slices/approvalsSlice.js';
import type { ChatSlice } from './slices/chatSlice.js';
import type { LayersSlice } from './slices/layersSlice.js';
import type { MapSlice } from './slices/mapSlice.js';
import type { RunSlice } from './slices/runSlice.js';

export type AppState = AppInfoSlice & LayersSlice & ChatSlice & RunSlice & ApprovalsSlice & MapSlice;

/** A slice sees the whole state and names every action (`set(…, false, 'chat/appendDelta')`). */
export type SliceCreator<Slice> = StateCreator<AppState, [['zustand/devtools', never]], [], Slice>;

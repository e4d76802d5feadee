import type { EventPayload } from '../../../src-shared/bridge/contract.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

export interface SettingsSlice {
  /** Whether the model settings panel is open. */
  settingsOpen: boolean;
  openSettings(): void;
  closeSettings(): void;
  /** Main says the model changed (saved here, or the settings were edited elsewhere). */
  setModelStatus(status: EventPayload<'settings/changed'>): void;
  /** The display settings as main last said (null until loaded): the online basemap, off by default. */
  display: EventPayload<'settings/display-changed'> | null;
  setDisplaySettings(display: EventPayload<'settings/display-changed'>): void;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set) => ({
  settingsOpen: false,
  openSettings: () => set({ settingsOpen: true }, false, 'settings/open'),
  closeSettings: () => set({ settingsOpen: false }, false, 'settings/close'),
  display: null,
  setDisplaySettings: (display) => set({ display }, false, 'settings/displayChanged'),
  setModelStatus: (model) => set((s) => (s.appInfo ? { appInfo: { ...s.appInfo, model } } : {}), false, 'settings/modelChanged'),
});

export const selectSettingsOpen = (s: AppState) => s.settingsOpen;
export const selectDisplaySettings = (s: AppState) => s.display;

import type { PluginInfo } from '../../../src-shared/bridge/pluginContract.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

/**
 * The plugins main found (`plugins/list` at start, the whole list again on `plugins/changed`)
 * and whether the Plugins panel is open. Main owns the list; the renderer only shows it.
 */
export interface PluginsSlice {
  plugins: PluginInfo[];
  /** False until the first list arrives: the panel says "Loading…" meanwhile. */
  pluginsLoaded: boolean;
  /** Why the list could not be loaded, or null. */
  pluginsError: string | null;
  pluginsOpen: boolean;
  setPlugins(plugins: PluginInfo[]): void;
  pluginsFailed(message: string): void;
  setPluginsOpen(open: boolean): void;
}

export const createPluginsSlice: SliceCreator<PluginsSlice> = (set) => ({
  plugins: [],
  pluginsLoaded: false,
  pluginsError: null,
  pluginsOpen: false,
  setPlugins: (plugins) => set({ plugins, pluginsLoaded: true, pluginsError: null }, false, 'plugins/changed'),
  pluginsFailed: (pluginsError) => set({ pluginsError }, false, 'plugins/failed'),
  // One drawer at a time on the right: opening this one closes the audit log.
  setPluginsOpen: (pluginsOpen) =>
    set(pluginsOpen ? { pluginsOpen, auditOpen: false } : { pluginsOpen }, false, pluginsOpen ? 'plugins/opened' : 'plugins/closed'),
});

export const selectPlugins = (s: AppState) => s.plugins;
export const selectPluginsLoaded = (s: AppState) => s.pluginsLoaded;
export const selectPluginsError = (s: AppState) => s.pluginsError;
export const selectPluginsOpen = (s: AppState) => s.pluginsOpen;

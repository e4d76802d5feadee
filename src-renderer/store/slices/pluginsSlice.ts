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
  /**
   * The person's choice being sent (`enabled:<namespace>` or `read-only:<toolId>@<version>`,
   * see `pluginChoiceKey`): the choice controls are disabled until main answers, this one
   * marked busy. Null when none.
   */
  pluginChoicePending: string | null;
  /** Why the last choice was refused, or null. */
  pluginChoiceError: string | null;
  setPlugins(plugins: PluginInfo[]): void;
  /** A choice was sent to main. */
  pluginChoiceStarted(key: string): void;
  /** Main answered a choice: with the new list, or with why it refused. */
  pluginChoiceSettled(outcome: { plugins: PluginInfo[] } | { error: string }): void;
  pluginsFailed(message: string): void;
  setPluginsOpen(open: boolean): void;
}

export const createPluginsSlice: SliceCreator<PluginsSlice> = (set) => ({
  plugins: [],
  pluginsLoaded: false,
  pluginsError: null,
  pluginsOpen: false,
  pluginChoicePending: null,
  pluginChoiceError: null,
  setPlugins: (plugins) => set({ plugins, pluginsLoaded: true, pluginsError: null }, false, 'plugins/changed'),
  pluginChoiceStarted: (key) => set({ pluginChoicePending: key, pluginChoiceError: null }, false, 'plugins/choice-started'),
  pluginChoiceSettled: (outcome) =>
    set(
      'plugins' in outcome
        ? { plugins: outcome.plugins, pluginsLoaded: true, pluginsError: null, pluginChoicePending: null, pluginChoiceError: null }
        : { pluginChoicePending: null, pluginChoiceError: outcome.error },
      false,
      'plugins/choice-settled',
    ),
  pluginsFailed: (pluginsError) => set({ pluginsError }, false, 'plugins/failed'),
  // One drawer at a time on the right: opening this one closes the audit log.
  setPluginsOpen: (pluginsOpen) =>
    set(
      pluginsOpen ? { pluginsOpen, auditOpen: false, memoryOpen: false } : { pluginsOpen },
      false,
      pluginsOpen ? 'plugins/opened' : 'plugins/closed',
    ),
});

export const selectPlugins = (s: AppState) => s.plugins;
export const selectPluginsLoaded = (s: AppState) => s.pluginsLoaded;
export const selectPluginsError = (s: AppState) => s.pluginsError;
export const selectPluginsOpen = (s: AppState) => s.pluginsOpen;
export const selectPluginChoicePending = (s: AppState) => s.pluginChoicePending;
export const selectPluginChoiceError = (s: AppState) => s.pluginChoiceError;

/** A choice the person makes in the Plugins panel. */
export type PluginChoice =
  { kind: 'enabled'; namespace: string; enabled: boolean } | { kind: 'read-only'; toolId: string; version: string; readOnly: boolean };

/** The key of a plugin's enable switch (what `pluginChoicePending` holds while it is sent). */
export const enabledChoiceKey = (namespace: string) => `enabled:${namespace}`;
/** The key of one tool version's read-only toggle. */
export const readOnlyChoiceKey = (toolId: string, version: string) => `read-only:${toolId}@${version}`;

/** Which control a choice belongs to. */
export function pluginChoiceKey(choice: PluginChoice): string {
  return choice.kind === 'enabled' ? enabledChoiceKey(choice.namespace) : readOnlyChoiceKey(choice.toolId, choice.version);
}

import type { BridgeClient } from '../../src-shared/bridge/contract.js';
import type { AppStore } from './appStore.js';
import { pluginChoiceKey, type PluginChoice } from './slices/pluginsSlice.js';

/**
 * Sends one of the person's plugin choices to main (`plugins/set-enabled`,
 * `plugins/mark-read-only`) and shows main's answer: the new list, or why it refused. One choice
 * at a time: another sent while one is pending is dropped (the controls are disabled meanwhile).
 * Returns whether main took it.
 */
export async function sendPluginChoice(bridge: Pick<BridgeClient, 'call'>, store: AppStore, choice: PluginChoice): Promise<boolean> {
  if (store.getState().pluginChoicePending !== null) return false;
  store.getState().pluginChoiceStarted(pluginChoiceKey(choice));
  try {
    const { plugins } =
      choice.kind === 'enabled'
        ? await bridge.call('plugins/set-enabled', { namespace: choice.namespace, enabled: choice.enabled })
        : await bridge.call('plugins/mark-read-only', { toolId: choice.toolId, version: choice.version, readOnly: choice.readOnly });
    store.getState().pluginChoiceSettled({ plugins });
    return true;
  } catch (error) {
    store.getState().pluginChoiceSettled({ error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

import type { PluginPinRepo } from '../store/pluginPinRepo.js';

/**
 * A conversation runs with the plugin versions it started with (DESIGN §6): the first time it
 * meets a plugin (its first request after the plugin appeared) the current version is pinned;
 * a newer version arriving later goes to new conversations only. Returns namespace → version.
 */
export function pinCurrentVersions(
  pins: Pick<PluginPinRepo, 'pin' | 'of'>,
  conversationId: string,
  current: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  for (const [namespace, version] of current) pins.pin(conversationId, namespace, version);
  return pins.of(conversationId);
}

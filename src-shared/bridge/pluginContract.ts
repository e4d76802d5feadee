import { z } from 'zod';

/** One tool of a plugin version, as the Plugins panel lists it. */
export const PluginToolInfo = z.object({
  id: z.string(),
  title: z.string(),
  safety: z.enum(['read', 'write', 'destructive']),
  riskLevel: z.enum(['low', 'medium', 'high', 'critical']),
  network: z.boolean(),
});

/**
 * One plugin version the app found: where, in what state and why. `unavailable` plugins are
 * never offered to the model; `reasons` says what is wrong in words that name the culprit.
 */
export const PluginInfo = z.object({
  /** `namespace@version`. */
  id: z.string(),
  namespace: z.string(),
  version: z.string(),
  name: z.string(),
  description: z.string(),
  origin: z.enum(['built-in', 'user', 'project']),
  dir: z.string(),
  state: z.enum(['available', 'unavailable']),
  reasons: z.array(z.string()),
  tools: z.array(PluginToolInfo),
  /**
   * For `command` executors: whether their programs run in the OS sandbox (bubblewrap) here;
   * false means unsandboxed (the panel says so); null when the plugin runs no command.
   */
  sandboxed: z.boolean().nullable(),
});
export type PluginInfo = z.infer<typeof PluginInfo>;

const PluginList = z.object({ plugins: z.array(PluginInfo) });

/** The Plugins panel: what the plugin folders hold, hot-reloaded. */
export const pluginMethods = {
  'plugins/list': { params: z.object({}).strict(), result: PluginList },
};

export const pluginEvents = {
  /** The plugin folders changed (a plugin added, edited, removed): the whole list again. */
  'plugins/changed': PluginList,
};

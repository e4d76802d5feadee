import { z } from 'zod';

/** How a plugin tool runs (its manifest's `executor.type`). */
export const PluginExecutorKind = z.enum(['command', 'http', 'grpc', 'mcp', 'module']);
export type PluginExecutorKind = z.infer<typeof PluginExecutorKind>;

/** One tool of a plugin version, as the Plugins panel lists it. */
export const PluginToolInfo = z.object({
  id: z.string(),
  title: z.string(),
  safety: z.enum(['read', 'write', 'destructive']),
  riskLevel: z.enum(['low', 'medium', 'high', 'critical']),
  network: z.boolean(),
  /**
   * How it runs. The panel offers "mark as read-only" only for `mcp` tools (whose server, not
   * the manifest, decides what they do). Absent from a main that does not say.
   */
  executor: PluginExecutorKind.optional(),
  /** For `mcp` tools: whether the person marked this version of the tool read-only in this project. */
  readOnlyMark: z.boolean().optional(),
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
   * Whether its programs (commands, a module's host) run in the OS sandbox (bubblewrap) here;
   * false means unsandboxed (the panel says so) — always for an MCP server over stdio; null
   * when the plugin starts no program.
   */
  sandboxed: z.boolean().nullable(),
  /**
   * Whether the person lets this plugin (every version of its namespace) be offered in this
   * project; a switched-off plugin keeps its `state` but none of its tools is offered.
   */
  enabled: z.boolean().default(true),
  /**
   * Its checks before it is offered — the connectivity probe of its endpoints, then its
   * self-test cases: `none` when it never got that far (broken, unrunnable); what failed is in
   * `reasons`.
   */
  checks: z.object({
    state: z.enum(['none', 'running', 'passed', 'failed']),
    selfTestCases: z.number().int().nonnegative(),
    /** Endpoints (http, grpc, mcp) the probe reaches. */
    endpoints: z.number().int().nonnegative(),
  }),
});
export type PluginInfo = z.infer<typeof PluginInfo>;

const PluginList = z.object({ plugins: z.array(PluginInfo) });

/** A plugin namespace (the manifest's are at most 32 characters). */
const Namespace = z.string().min(1).max(32);

/** The Plugins panel: what the plugin folders hold, hot-reloaded, and the person's choices. */
export const pluginMethods = {
  'plugins/list': { params: z.object({}).strict(), result: PluginList },
  /** Switches a plugin (all its versions) on or off in this project; the list again. */
  'plugins/set-enabled': {
    params: z.object({ namespace: Namespace, enabled: z.boolean() }).strict(),
    result: PluginList,
  },
  /** Marks one version of an MCP tool read-only (or not) in this project; the list again. */
  'plugins/mark-read-only': {
    params: z.object({ toolId: z.string().min(1).max(200), version: z.string().min(1).max(100), readOnly: z.boolean() }).strict(),
    result: PluginList,
  },
};

export const pluginEvents = {
  /** The plugin folders changed (a plugin added, edited, removed): the whole list again. */
  'plugins/changed': PluginList,
};

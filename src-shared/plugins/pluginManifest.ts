import { z } from 'zod';
import { templateParams } from './argTemplate.js';
import { formatIssues, plainErrors } from './manifestProblems.js';
import { checkParamRules, PARAM_RULE_FORMS, PARAM_RULE_PATTERN } from '../tools/paramRules/paramRules.js';
import { executorTemplates, executorUsesNetwork, pluginExecutorSchema } from './pluginExecutor.js';
import { parseRange, SEMVER } from './semver.js';

// The rule types and parser belong to the meta-model's vocabulary; one import serves a consumer.
export { parseParamRule, type GeometryKind, type ParamRule, type ParamRuleKind } from '../tools/paramRules/paramRules.js';

/**
 * The meta-model of a plugin: what `plugin.yaml` may say (DESIGN §6, issue #12). Static only —
 * checking a manifest runs nothing. Every tool of a plugin becomes `namespace.name` for the
 * kernel and `namespace_name` on the wire; its permission face (safety, risk, network, caller,
 * limits) is read by the policy, never taken from the model. The JSON Schema for editors is
 * generated from these schemas (`npm run plugin-schema` → plugins/plugin.schema.json).
 */

/** Namespaces of the built-in tools and of ones planned (code, web) or the manager's own. */
export const RESERVED_NAMESPACES = [
  'layers',
  'inspect',
  'style',
  'processing',
  'map',
  'skills',
  'commands',
  'code',
  'web',
  'plugins',
] as const;

/** Handles a plugin may ask for: the tool handles, and `net` for anything leaving the machine. */
export const PLUGIN_REQUIREMENTS = ['project', 'gdal', 'map', 'net'] as const;
export type PluginRequirement = (typeof PLUGIN_REQUIREMENTS)[number];

export const DESCRIPTION_MAX = 1024;
export const TOOL_DESCRIPTION_MAX = 2000;

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const snake = (what: string, max: number) =>
  z
    .string()
    .max(max)
    .regex(SNAKE, { error: (iss) => `${what} '${String(iss.input)}' must be lowercase snake_case (a-z, 0-9, single _)` });

// 32 + '_' + 31: a wire name `namespace_name` stays within the 64 characters model APIs accept.
export const namespaceSchema = snake('namespace', 32)
  .refine((ns) => !(RESERVED_NAMESPACES as readonly string[]).includes(ns), {
    error: (iss) => `'${String(iss.input)}' is a built-in namespace; choose another`,
  })
  .describe('Lowercase snake_case; prefixes every tool id (namespace.name)');

export const versionSchema = z
  .string()
  .max(100)
  .regex(SEMVER, { error: (iss) => `'${String(iss.input)}' is not a semantic version (like 1.2.0)` })
  .describe('Semantic version, e.g. 1.0.0');

const text = (max: number) => z.string().trim().min(1, 'is empty').max(max);

const dependencySchema = z
  .union([z.string().max(200), z.strictObject({ namespace: z.string().max(32), version: z.string().max(100).default('*') })], {
    error: () => "give 'namespace@range' or {namespace, version}",
  })
  .superRefine((dep, ctx) => {
    const { namespace, version } = typeof dep === 'string' ? splitDependency(dep) : dep;
    if (!SNAKE.test(namespace)) ctx.addIssue({ code: 'custom', message: `'${namespace}' is not a plugin namespace` });
    if (!parseRange(version))
      ctx.addIssue({ code: 'custom', message: `'${version}' is not a version range (like ^1.2.0, >=1.0.0 <2.0.0, 1.x)` });
  })
  .describe("Another plugin this one needs: 'namespace@range' or {namespace, version}");
export type PluginDependencySpec = z.output<typeof dependencySchema>;

function splitDependency(text: string): { namespace: string; version: string } {
  const at = text.indexOf('@');
  return at < 0 ? { namespace: text, version: '*' } : { namespace: text.slice(0, at), version: text.slice(at + 1) };
}

/** `depends_on` items in one shape. */
export function pluginDependencies(manifest: { depends_on: readonly PluginDependencySpec[] }): { namespace: string; range: string }[] {
  return manifest.depends_on.map((d) => {
    const { namespace, version } = typeof d === 'string' ? splitDependency(d) : d;
    return { namespace, range: version };
  });
}

/** Any JSON Schema object (a test's expected shape). */
export const jsonSchemaObject = z.record(z.string(), z.unknown());

/** Why zod cannot use this JSON Schema (to validate arguments or results), or null. */
export function jsonSchemaProblem(schema: Record<string, unknown>): string | null {
  try {
    z.fromJSONSchema(schema);
    return null;
  } catch (e) {
    return `not a JSON Schema Mapwright can check: ${e instanceof Error ? e.message : String(e)}`;
  }
}

export const parametersSchema = z
  .looseObject({
    type: z.literal('object', { error: "must be 'object': a tool takes named arguments" }),
    properties: z.record(z.string(), z.record(z.string(), z.unknown(), { error: 'each property is a JSON Schema object' })).default({}),
    required: z.array(z.string()).optional(),
  })
  .superRefine((p, ctx) => {
    const names = Object.keys(p.properties);
    for (const name of names) {
      if (!PARAM_NAME.test(name))
        ctx.addIssue({ code: 'custom', path: ['properties', name], message: `parameter name '${name}' must be a plain identifier` });
    }
    if (names.length > 50) ctx.addIssue({ code: 'custom', path: ['properties'], message: `${names.length} parameters; at most 50` });
    for (const name of p.required ?? []) {
      if (!names.includes(name))
        ctx.addIssue({ code: 'custom', path: ['required'], message: `'${name}' is required but not in properties` });
    }
    const problem = jsonSchemaProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('JSON Schema of the arguments: type object, properties, required');

const ruleText = z.string().meta({ pattern: PARAM_RULE_PATTERN.source, description: `One of ${PARAM_RULE_FORMS.join(', ')}` });

export const limitsSchema = z.strictObject({
  timeout_s: z.number().positive().max(3600).optional().describe('Seconds before a call is stopped'),
  concurrency: z.int().min(1).max(16).optional().describe('At most this many calls at once'),
  once_per_session: z.boolean().optional().describe('At most one call per conversation'),
});

export const pluginToolSchema = z
  .strictObject({
    name: snake('tool name', 31).describe('Short snake_case name; the tool id is namespace.name'),
    title: text(80).describe('What the person sees on cards and dialogs'),
    group: text(40),
    icon: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, { error: (iss) => `icon '${String(iss.input)}' must be an icon name like 'cog' or 'layers'` })
      .max(40),
    description: text(TOOL_DESCRIPTION_MAX).describe('For the model: what it does, what it returns, which tool uses its output'),
    parameters: parametersSchema.default({ type: 'object', properties: {} }),
    rules: z
      .record(z.string(), z.array(ruleText))
      .default({})
      .describe('Semantic checks per parameter, run before any dialog: parameter → list of rules'),
    safety: z.enum(['read', 'write', 'destructive']),
    risk_level: z.enum(['low', 'medium', 'high', 'critical']).default('low'),
    network: z.boolean().default(false),
    caller: z.enum(['user_and_model', 'user_only']).default('user_and_model'),
    user_visible: z.boolean().default(false).describe('The GUI may run it as the person'),
    limits: limitsSchema.default({}),
    deprecated: z
      .union([z.boolean(), text(300)])
      .default(false)
      .describe('true, or what replaces it; a deprecated version is not offered to new conversations'),
    executor: pluginExecutorSchema,
  })
  .superRefine((tool, ctx) => {
    const params = Object.keys(tool.parameters.properties);
    for (const [param, message] of checkParamRules(tool.rules, params)) ctx.addIssue({ code: 'custom', path: ['rules', param], message });
    for (const { path, template } of executorTemplates(tool.executor)) {
      const t = templateParams(template);
      for (const p of t.ok ? t.params : []) {
        if (!params.includes(p))
          ctx.addIssue({ code: 'custom', path: ['executor', ...path], message: `placeholder {${p}} names no parameter` });
      }
    }
    if (executorUsesNetwork(tool.executor) && !tool.network) {
      ctx.addIssue({
        code: 'custom',
        path: ['network'],
        message: `the ${tool.executor.type} executor reaches the network: set network: true`,
      });
    }
    if (tool.executor.type === 'command' && tool.executor.outputs?.length && tool.safety === 'read') {
      ctx.addIssue({
        code: 'custom',
        path: ['safety'],
        message: 'outputs are loaded as layers, a change to the project: safety must be write',
      });
    }
  });

export const pluginManifestSchema = z
  .strictObject({
    namespace: namespaceSchema,
    version: versionSchema,
    name: text(80).describe('Display name'),
    description: text(DESCRIPTION_MAX),
    author: text(200),
    requires: z
      .array(z.enum(PLUGIN_REQUIREMENTS))
      .default([])
      .describe('Handles its tools use: project, gdal, map, net (anything leaving the machine)'),
    depends_on: z.array(dependencySchema).max(20).default([]),
    load: z.enum(['lazy', 'eager']).default('lazy').describe('lazy: start the executor on first use; eager: at start'),
    tools: z.array(pluginToolSchema).min(1, 'a plugin needs at least one tool').max(100),
  })
  .superRefine((m, ctx) => {
    const dupRequire = m.requires.find((r, i) => m.requires.indexOf(r) !== i);
    if (dupRequire) ctx.addIssue({ code: 'custom', path: ['requires'], message: `'${dupRequire}' is listed twice` });
    const firstByName = new Map<string, number>();
    m.tools.forEach((tool, i) => {
      const first = firstByName.get(tool.name);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['tools', i, 'name'], message: `'${tool.name}' is the name of tools[${first}] too` });
      else firstByName.set(tool.name, i);
      if ((tool.network || executorUsesNetwork(tool.executor)) && !m.requires.includes('net')) {
        ctx.addIssue({ code: 'custom', path: ['requires'], message: `tools[${i}] (${tool.name}) uses the network: add 'net'` });
      }
    });
    const deps = pluginDependencies(m).map((d) => d.namespace);
    deps.forEach((ns, i) => {
      if (ns === m.namespace) ctx.addIssue({ code: 'custom', path: ['depends_on', i], message: 'a plugin cannot depend on itself' });
      else if (deps.indexOf(ns) !== i) ctx.addIssue({ code: 'custom', path: ['depends_on', i], message: `'${ns}' is listed twice` });
    });
  })
  .meta({ title: 'Mapwright plugin (plugin.yaml)' });

export type PluginManifest = z.output<typeof pluginManifestSchema>;
export type PluginToolManifest = PluginManifest['tools'][number];
export type PluginLimits = z.output<typeof limitsSchema>;
export type RiskLevel = PluginToolManifest['risk_level'];

export type ManifestCheck = { ok: true; manifest: PluginManifest } | { ok: false; problems: string[] };

/** Validates a parsed `plugin.yaml`. Never throws; each problem names its culprit by path. */
export function checkPluginManifest(value: unknown): ManifestCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problems: ['(top level): plugin.yaml must be a mapping of keys (namespace, version, tools…)'] };
  }
  const parsed = pluginManifestSchema.safeParse(value, { error: plainErrors });
  if (parsed.success) return { ok: true, manifest: parsed.data };
  return { ok: false, problems: formatIssues(parsed.error.issues) };
}

/** The kernel's id of a plugin tool. */
export function pluginToolId(namespace: string, name: string): `${string}.${string}` {
  return `${namespace}.${name}`;
}

/** The zod schema of a tool's arguments, from its checked JSON Schema (for the dispatcher and self-tests). */
export function pluginParametersSchema(tool: Pick<PluginToolManifest, 'parameters'>): z.ZodType {
  return z.fromJSONSchema(tool.parameters);
}

import { resolve, sep } from 'node:path';
import type { z } from 'zod';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import {
  pluginParametersSchema,
  pluginToolId,
  type PluginManifest,
  type PluginToolManifest,
} from '../../src-shared/plugins/pluginManifest.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import { defineTool, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { EgressOptions } from '../net/ssrfGuard.js';
import { commandFailure, runCommand } from './executors/commandExecutor.js';
import { runHttp } from './executors/httpExecutor.js';
import { runGrpc } from './executors/grpcExecutor.js';
import { sandboxSupport } from './executors/bwrapSandbox.js';
import type { PluginEntry } from './readPluginRoot.js';
import { layerArgs } from './layerArgs.js';
import { effectivePermission } from './mcpToolPermission.js';

/** What a plugin's tools need from the app, beyond the handles a tool gets. */
export interface PluginToolDeps {
  /** The project's outputs folder: every command runs in a fresh folder under it. */
  outputsDir(): string;
  /** Paths a sandboxed command must not see (settings, keys, the project database). */
  hidePaths(): readonly string[];
  /** Paths it may read although hidden otherwise (the folders of the project's sources). */
  readPaths(): readonly string[];
  /** The SSRF guard's options (the person's non-public origins) for `http` executors. */
  egress?: EgressOptions;
}

/** What the plugin host adds for the executors that keep a process or a connection. */
export interface ExecutorDeps {
  /** Module hosts and MCP connections, per plugin version (started lazily or, for `load: eager`, at once). */
  sessions: ExecutorSessions;
  /** What the connectivity probe learnt (an MCP server's parameter schemas). */
  learnt: ProbeLearnt;
  /** Whether the person marked this MCP tool read-only for this plugin version. */
  readOnlyMarked(toolId: string, version: string): boolean;
}

/** The probe's findings a tool declaration uses: parameters of MCP tools that declare none, by tool name. */
export interface ProbeLearnt {
  mcpParameters?: Record<string, Record<string, unknown>>;
}

/** The calls of the long-lived executors (pluginSessions.ts). */
export interface ExecutorSessions {
  callMcp(call: SessionCall & { tool: PluginToolManifest }): Promise<unknown>;
  callModule(
    call: SessionCall & { tool: PluginToolManifest; requires: readonly string[]; project: Partial<Handles>['project'] },
  ): Promise<unknown>;
}

export interface SessionCall {
  dir: string;
  version: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  progress(fraction: number, message: string): void;
  timeoutMs: number;
  deps: PluginToolDeps;
}

/** Executors this version of Mapwright can run; a plugin using another is listed as unavailable. */
export const RUNNABLE_EXECUTORS = new Set(['command', 'http', 'grpc', 'mcp', 'module']);

const DEFAULT_TIMEOUT_S = 120;
const OUTPUT_CAP_BYTES = 1_000_000;
/** The most a network executor (http, grpc) reads of an answer. */
const NETWORK_MAX_BYTES = 1_000_000;
/** What the model reads of a program's output; the rest is summarised by its length. */
const MODEL_TEXT_CHARS = 8_000;

/** Why a plugin's tools cannot be offered here, or null when they can. */
export function unrunnableReason(manifest: PluginManifest): string | null {
  const other = manifest.tools.find((t) => !RUNNABLE_EXECUTORS.has(t.executor.type));
  return other
    ? `tool '${other.name}': the '${other.executor.type}' executor is not supported by this version of Mapwright yet (supported: ${[...RUNNABLE_EXECUTORS].join(', ')})`
    : null;
}

/**
 * A plugin version's tools as tool declarations: the same contract, permission and dispatcher
 * as the built-in ones (DESIGN §6). The permission face comes from plugin.yaml, never from the
 * model; parameter rules are declared for the dispatcher, checked before any dialog; `risk_level` high and
 * critical failures are never retryable.
 */
export function pluginToolDefinitions(entry: PluginEntry, deps: PluginToolDeps & ExecutorDeps): ToolDefinition[] {
  const manifest = entry.manifest;
  if (!manifest || entry.state !== 'available') return [];
  return manifest.tools.map((tool) => toolDefinition(manifest, withLearntParameters(tool, deps.learnt), entry.dir, deps));
}

/** An MCP tool that declares no parameters takes the server's own schema, as the probe read it. */
function withLearntParameters(tool: PluginToolManifest, learnt: ProbeLearnt): PluginToolManifest {
  const schema = learnt.mcpParameters?.[tool.name];
  const declaresNone = Object.keys(tool.parameters.properties).length === 0;
  return tool.executor.type === 'mcp' && declaresNone && schema
    ? { ...tool, parameters: schema as PluginToolManifest['parameters'] }
    : tool;
}

function toolDefinition(
  manifest: PluginManifest,
  tool: PluginToolManifest,
  dir: string,
  deps: PluginToolDeps & ExecutorDeps,
): ToolDefinition {
  const id = pluginToolId(manifest.namespace, tool.name) as `${string}.${string}`;
  const input = pluginParametersSchema(tool) as z.ZodType<Record<string, unknown>>;
  // An MCP server's hints are not believed: write and network unless the person said otherwise.
  const permission = effectivePermission(tool, deps.readOnlyMarked(id, manifest.version));
  const deprecated = tool.deprecated === false ? undefined : tool.deprecated === true ? 'deprecated by its plugin' : tool.deprecated;
  const strict = tool.risk_level === 'high' || tool.risk_level === 'critical';
  const origin = declaredOrigin(tool);
  return defineTool<z.ZodType<Record<string, unknown>>, 'project'>({
    id,
    version: manifest.version,
    description: tool.description,
    input,
    title: tool.title,
    group: tool.group,
    icon: tool.icon,
    summary: (args) => `${tool.title} (${manifest.name} ${manifest.version}): ${summariseArgs(args)}`,
    safety: permission.safety,
    riskLevel: tool.risk_level,
    network: permission.network,
    ...(origin ? { origins: [origin] } : {}),
    caller: tool.caller,
    userVisible: tool.user_visible,
    ...(tool.limits.timeout_s ? { timeoutMs: tool.limits.timeout_s * 1000 } : {}),
    ...(tool.limits.concurrency ? { concurrency: tool.limits.concurrency } : {}),
    ...(tool.limits.once_per_session ? { oncePerSession: true } : {}),
    ...(deprecated ? { deprecated } : {}),
    exec: 'main',
    handles: ['project'],
    // Checked by the dispatcher against the project before prepare and any dialog, as for built-in tools.
    ...(Object.keys(tool.rules).length ? { rules: tool.rules } : {}),
    async prepare(args) {
      return { args, preview: { plugin: `${manifest.namespace}@${manifest.version}`, folder: dir } };
    },
    async execute(args, { signal, progress, handles }) {
      try {
        // Layer names become file paths (self-tests have no project: package paths); see layerArgs.ts.
        const layers = layerArgs(tool.rules, args, (handles as Partial<Handles>).project, dir);
        const runDeps = layers.readPaths.length ? { ...deps, readPaths: () => [...deps.readPaths(), ...layers.readPaths] } : deps;
        const project = (handles as Partial<Handles>).project;
        return await runTool({ manifest, tool, dir, args: layers.args, signal, progress, deps: runDeps, sessions: deps.sessions, project });
      } catch (err) {
        // A plugin that says its failures are costly is never retried automatically.
        if (strict && err instanceof ToolFailure && err.retryable) throw new ToolFailure(err.code, err.message, false, err.hint);
        throw err;
      }
    },
  });
}

interface ToolRun {
  manifest: PluginManifest;
  tool: PluginToolManifest;
  dir: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  progress: (f: number, m: string) => void;
  deps: PluginToolDeps;
  sessions: ExecutorSessions;
  project: Partial<Handles>['project'];
}

async function runTool({ manifest, tool, dir, args, signal, progress, deps, sessions, project }: ToolRun): Promise<unknown> {
  const ex = tool.executor;
  const timeoutMs = (tool.limits.timeout_s ?? DEFAULT_TIMEOUT_S) * 1000;
  const call = { dir, version: manifest.version, args, signal, progress, timeoutMs, deps };
  if (ex.type === 'mcp') return sessions.callMcp({ ...call, tool });
  if (ex.type === 'module') return sessions.callModule({ ...call, tool, requires: manifest.requires, project });
  if (ex.type === 'http') {
    // The declared origin is the only one it may reach (a network tool: every call asks).
    const answer = await runHttp(ex, args, {
      signal,
      timeoutMs,
      maxBytes: NETWORK_MAX_BYTES,
      allowedOrigin: new URL(ex.url).origin,
      ...(deps.egress ? { egress: deps.egress } : {}),
    });
    return {
      status: answer.status,
      content_type: answer.contentType,
      body: answer.json ? answer.body : forModel(String(answer.body)),
      truncated: answer.truncated,
    };
  }
  if (ex.type === 'grpc') {
    const answer = await runGrpc(ex, args, {
      pluginDir: dir,
      signal,
      timeoutMs,
      maxBytes: NETWORK_MAX_BYTES,
      ...(deps.egress ? { egress: deps.egress } : {}),
    });
    return { response: answer.response };
  }
  await refuseUnsandboxedReach(tool, args, deps);
  const [program = '', ...argv] = ex.argv;
  const result = await runCommand({ program, argv, pluginDir: dir, ...(ex.outputs ? { outputs: ex.outputs } : {}) }, args, {
    outputsDir: deps.outputsDir(),
    label: tool.name,
    signal,
    timeoutMs,
    outputCapBytes: OUTPUT_CAP_BYTES,
    sandbox: 'auto',
    readPaths: deps.readPaths(),
    hidePaths: deps.hidePaths(),
    progress,
  });
  const failure = commandFailure(result);
  if (failure) throw failure;
  return {
    stdout: forModel(result.stdout),
    ...(result.stderr.trim() ? { stderr: forModel(result.stderr) } : {}),
    sandboxed: result.sandboxed,
    ...(result.files.length ? { files: result.files, load_layers: result.files.map((path) => ({ path })) } : {}),
  };
}

/**
 * Without the sandbox a program's arguments are its only fence: a value naming a network
 * source (a URL, /vsicurl/…) or one of the app's private files is refused there, as the
 * dispatcher refuses them for built-in tools. Under bubblewrap the sandbox itself holds
 * (no network, private paths hidden).
 */
async function refuseUnsandboxedReach(tool: PluginToolManifest, args: Record<string, unknown>, deps: PluginToolDeps): Promise<void> {
  if ((await sandboxSupport()).available) return;
  const hidden = deps.hidePaths();
  for (const [param, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const source = classifySource(value);
    if ((source.kind === 'network' || source.kind === 'database') && !tool.network) {
      throw new ToolFailure(
        'not_allowed',
        `params.${param}: ${value} reaches the network, and this plugin's commands run unsandboxed here.`,
        false,
      );
    }
    const path = source.kind === 'local' ? resolve(source.path) : null;
    if (path && hidden.some((root) => path === root || path.startsWith(`${root}${sep}`))) {
      throw new ToolFailure('not_allowed', `params.${param}: this names one of Mapwright's own files, which plugins may not read.`, false);
    }
  }
}

/** The endpoint an http or grpc tool declares (approved once per tool version). */
function declaredOrigin(tool: PluginToolManifest): string | null {
  const ex = tool.executor;
  if (ex.type === 'http') return new URL(ex.url).origin;
  if (ex.type === 'grpc') return `grpc://${ex.address}`;
  return null;
}

function forModel(text: string): string {
  return text.length <= MODEL_TEXT_CHARS
    ? text
    : `${text.slice(0, MODEL_TEXT_CHARS)}\n… (${text.length - MODEL_TEXT_CHARS} more characters)`;
}

function summariseArgs(args: unknown): string {
  const text = JSON.stringify(args) ?? '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ModuleFetchAnswer, ModuleLayerInfo } from '../../src-shared/plugins/moduleRpc.js';
import type { PluginToolManifest } from '../../src-shared/plugins/pluginManifest.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { guardedFetch } from '../net/guardedFetch.js';
import type { EgressOptions } from '../net/ssrfGuard.js';
import { ModuleHost, type ModuleHandles } from './executors/moduleExecutor.js';
import { boundToolName, mcpSpecOf, mcpVersionKey, McpSessions, runMcpTool } from './executors/mcpSessions.js';
import type { ExecutorSessions, SessionCall } from './pluginTools.js';
import type { PluginEntry } from './readPluginRoot.js';

/** How a module plugin's host process is started. */
export interface PluginRuntime {
  /** The built plugin host (`dist/main/plugin-host.mjs`). */
  hostEntry: string;
  /** The runtime that runs it: Node (default), or Electron with ELECTRON_RUN_AS_NODE. */
  execPath?: string;
  runAsNode?: boolean;
}

export interface PluginSessionsOptions extends Partial<PluginRuntime> {
  /** Where a module's working folders go before a project is known (eager start, self-tests). */
  outputsDir(): string;
  egress?: EgressOptions;
}

/** The most a module's `net.fetch` reads of an answer. */
const MODULE_FETCH_MAX_BYTES = 5 * 1024 * 1024;
/** What the model reads of an MCP tool's text. */
const MCP_MAX_CHARS = 8_000;
/** Time to start a module host or finish an MCP handshake. */
const START_TIMEOUT_MS = 30_000;

/**
 * The executors that outlive one call, per plugin version: a plugin-host process for `module`
 * tools (one per version and entry) and MCP connections (McpSessions). Started on first use,
 * or at once for `load: eager`; stopped when the version is no longer offered (removed, edited,
 * switched off) and when the app closes.
 */
export class PluginSessions implements ExecutorSessions {
  private readonly modules = new Map<string, Promise<ModuleHost>>();
  private readonly mcp = new McpSessions();
  /** The project of the call that runs now: module handles answer only during a call. */
  private project: ProjectHandle | undefined;

  constructor(private readonly o: PluginSessionsOptions) {}

  async callModule(
    call: SessionCall & { tool: PluginToolManifest; requires: readonly string[]; project: ProjectHandle | undefined },
  ): Promise<unknown> {
    const ex = call.tool.executor;
    if (ex.type !== 'module') throw new ToolFailure('handler_error', `${call.tool.name} is not a module tool.`, false);
    const host = await this.moduleHost(call.dir, call.version, ex.entry, call.requires, call.deps);
    if (!host.tools.includes(call.tool.name)) {
      throw new ToolFailure(
        'handler_error',
        `The module ${ex.entry} defines no tool '${call.tool.name}' (it defines: ${host.tools.join(', ') || 'none'}).`,
        false,
      );
    }
    this.project = call.project;
    const outputs = call.deps.outputsDir();
    mkdirSync(outputs, { recursive: true });
    const workDir = mkdtempSync(join(outputs, `${call.tool.name}-`));
    let files: string[] = [];
    try {
      const answer = await host.call(call.tool.name, call.args, {
        signal: call.signal,
        workDir,
        timeoutMs: call.timeoutMs,
        progress: call.progress,
        handles: call.tool.network ? ['project', 'net'] : ['project'],
      });
      files = answer.files;
      return files.length ? { result: answer.result, files, load_layers: files.map((path) => ({ path })) } : { result: answer.result };
    } finally {
      // A call that returned no file (or failed, or was stopped) leaves nothing in the outputs.
      if (files.length === 0) rmSync(workDir, { recursive: true, force: true });
    }
  }

  async callMcp(call: SessionCall & { tool: PluginToolManifest }): Promise<unknown> {
    const ex = call.tool.executor;
    if (ex.type !== 'mcp') throw new ToolFailure('handler_error', `${call.tool.name} is not an MCP tool.`, false);
    return runMcpTool(this.mcp, mcpSpecOf(ex), boundToolName(call.tool.name, ex), call.args, {
      pluginDir: call.dir,
      version: call.version,
      openTimeoutMs: START_TIMEOUT_MS,
      signal: call.signal,
      timeoutMs: call.timeoutMs,
      maxChars: MCP_MAX_CHARS,
      ...(call.deps.egress ? { egress: call.deps.egress } : {}),
    });
  }

  /** The pool of MCP connections: an eager plugin's probe opens its servers in it and leaves them open. */
  get mcpPool(): McpSessions {
    return this.mcp;
  }

  /** `load: eager`: starts the version's module hosts now (its MCP servers were opened by the probe). */
  warm(entry: PluginEntry): void {
    const m = entry.manifest;
    if (!m) return;
    const entries = new Set(m.tools.flatMap((t) => (t.executor.type === 'module' ? [t.executor.entry] : [])));
    for (const file of entries) void this.moduleHost(entry.dir, m.version, file, m.requires, this.o).catch(() => {});
  }

  /** Whether a version has an executor started (a module host or an MCP server, running or starting). */
  started(entry: Pick<PluginEntry, 'dir' | 'version'>): boolean {
    const key = sessionKey(entry.dir, entry.version);
    return [...this.modules.keys()].some((k) => k.startsWith(`${key}\n`)) || this.mcp.holds(mcpVersionKey(entry.dir, entry.version));
  }

  /** Stops the executors of every version not in `offered`. */
  retain(offered: readonly PluginEntry[]): void {
    const keep = new Set(offered.map((e) => sessionKey(e.dir, e.version)));
    for (const [key, host] of this.modules) {
      if (keep.has(key.slice(0, key.lastIndexOf('\n')))) continue;
      this.modules.delete(key);
      void host.then((h) => h.close()).catch(() => {});
    }
    void this.mcp.retain(new Set(offered.map((e) => mcpVersionKey(e.dir, e.version))));
  }

  async close(): Promise<void> {
    const hosts = [...this.modules.values()];
    this.modules.clear();
    await Promise.all(hosts.map((h) => h.then((x) => x.close()).catch(() => {})));
    await this.mcp.closeAll();
  }

  private moduleHost(
    dir: string,
    version: string,
    entry: string,
    requires: readonly string[],
    deps: { outputsDir(): string; egress?: EgressOptions; readPaths?: () => readonly string[]; hidePaths?: () => readonly string[] },
  ): Promise<ModuleHost> {
    const key = `${sessionKey(dir, version)}\n${entry}`;
    const known = this.modules.get(key);
    if (known) return known;
    if (!this.o.hostEntry)
      return Promise.reject(
        new ToolFailure(
          'handler_error',
          'This build of Mapwright has no plugin host: module plugins cannot run (npm run build makes it).',
          false,
        ),
      );
    const started = ModuleHost.start({
      pluginDir: dir,
      entry,
      requires,
      handles: this.handles(deps.egress),
      outputsDir: deps.outputsDir(),
      hostEntry: this.o.hostEntry,
      ...(this.o.execPath ? { execPath: this.o.execPath } : {}),
      ...(this.o.runAsNode ? { runAsNode: true } : {}),
      sandbox: process.env.MAPWRIGHT_PLUGIN_SANDBOX === 'off' ? 'off' : 'auto',
      readPaths: deps.readPaths?.() ?? [],
      hidePaths: deps.hidePaths?.() ?? [],
      timeoutMs: START_TIMEOUT_MS,
    });
    this.modules.set(key, started);
    // A module that fails to load is tried again at the next call (it may have been fixed).
    started.catch(() => {
      if (this.modules.get(key) === started) this.modules.delete(key);
    });
    return started;
  }

  /** The handles a module may be given; the host passes on only those its manifest requires. */
  private handles(egress: EgressOptions | undefined): ModuleHandles {
    return {
      project: { layers: async () => (this.project?.listLayers() ?? []).map(layerFacts) },
      net: {
        fetch: async (url, init, signal): Promise<ModuleFetchAnswer> => {
          const res = await guardedFetch(url, init, { ...(egress ?? {}), signal, maxBytes: MODULE_FETCH_MAX_BYTES });
          return { status: res.status, headers: Object.fromEntries(res.headers.entries()), text: res.body.toString('utf8') };
        },
      },
    };
  }
}

function sessionKey(dir: string, version: string): string {
  return `${dir}@${version}`;
}

function layerFacts(layer: ReturnType<ProjectHandle['listLayers']>[number]): ModuleLayerInfo {
  const info = layer.info;
  return {
    name: layer.name,
    kind: info.kind,
    source: layer.source,
    ...(info.geometryType ? { geometryType: info.geometryType } : {}),
    ...(info.featureCount !== null ? { featureCount: info.featureCount } : {}),
    ...(info.crs?.epsg ? { crs: `EPSG:${info.crs.epsg}` } : info.crs?.name ? { crs: info.crs.name } : {}),
  };
}

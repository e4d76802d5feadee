import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { pluginToolId } from '../../src-shared/plugins/pluginManifest.js';
import { compareVersions } from '../../src-shared/plugins/semver.js';
import type { ToolRegistry } from '../tool-host/toolRegistry.js';
import { sandboxSupport } from './executors/bwrapSandbox.js';
import { PluginCatalogue } from './pluginCatalogue.js';
import { pluginToolDefinitions, unrunnableReason, type ExecutorDeps, type PluginToolDeps, type ProbeLearnt } from './pluginTools.js';
import { resolveDependencies } from './pluginDependencies.js';
import { PluginSessions, type PluginRuntime } from './pluginSessions.js';
import { probeExecutors } from './probes.js';
import { effectivePermission } from './mcpToolPermission.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import type { PluginEntry } from './readPluginRoot.js';
import { runSelfTests, scratchOutputs } from './selfTests.js';

export interface PluginHostOptions {
  home: string;
  projectPath: string;
  /** The repo's (or the package's) `plugins/`. */
  builtInDir: string;
  registry: Pick<ToolRegistry, 'setGroup' | 'setAlternates'>;
  tools: PluginToolDeps;
  /** How module plugins run: the built plugin host and the runtime that starts it. */
  runtime?: PluginRuntime;
  /** The person's choices for this project (plugins switched off, MCP tools marked read-only). */
  choices?: PluginChoiceView;
  /** The connectivity probe of a version's endpoints (default: probeExecutors); tests may replace it. */
  probe?: (entry: PluginEntry) => Promise<CheckOutcome>;
  /** Told the whole list after every change (the `plugins/changed` event), and namespace → current version. */
  changed(plugins: PluginInfo[], current: ReadonlyMap<string, string>): void;
  debounceMs?: number;
}

/**
 * The plugin manager: the catalogue's plugins become tools of the registry, hot. A version is
 * offered once its own self-test cases pass. Per namespace the newest version that is not
 * deprecated is current (what new conversations get, at their next request); older versions
 * stay beside it for the conversations pinned to them (pluginPins.ts). A plugin whose executor
 * this build cannot run, whose self-tests fail, or whose tools the registry refuses (a clash of
 * names) is listed as unavailable with the reason and never offered.
 */
/** What the host reads of the person's plugin choices. */
export interface PluginChoiceView {
  isEnabled(namespace: string): boolean;
  readOnlyMarked(toolId: string, version: string): boolean;
}

/** What a version's checks found: problems (none: it may be offered) and what the probe learnt. */
export interface CheckOutcome {
  problems: string[];
  learnt: ProbeLearnt;
}

export class PluginHost {
  private readonly catalogue: PluginCatalogue;
  /** namespace → the version whose tools are the registry's current ones. */
  private current = new Map<string, string>();
  private infos: PluginInfo[] = [];
  /** Probe and self-test outcomes by plugin content: null while they run. */
  private readonly checks = new Map<string, CheckOutcome | null>();
  private sandboxed: boolean | null = null;
  /** Running executors (module hosts, MCP connections), per plugin version. */
  private readonly sessions: PluginSessions;
  private closed = false;

  constructor(private readonly o: PluginHostOptions) {
    this.sessions = new PluginSessions({
      ...o.runtime,
      outputsDir: () => o.tools.outputsDir(),
      ...(o.tools.egress ? { egress: o.tools.egress } : {}),
    });
    const userDir = join(o.home, 'plugins');
    try {
      mkdirSync(userDir, { recursive: true });
    } catch {
      // A read-only data folder only means no user plugins.
    }
    this.catalogue = new PluginCatalogue(
      [
        { dir: o.builtInDir, origin: 'built-in' },
        { dir: userDir, origin: 'user' },
        { dir: join(dirname(o.projectPath), 'plugins'), origin: 'project' },
      ],
      o.debounceMs === undefined ? {} : { debounceMs: o.debounceMs },
    );
    this.catalogue.onChange(() => this.sync());
    this.sync();
    // Whether commands run sandboxed here is a fact of the machine: probed once, then shown.
    void sandboxSupport().then((s) => {
      this.sandboxed = s.available;
      if (!this.closed) this.sync();
    });
  }

  /** Starts hot reloading (chokidar on the three folders). */
  watch(): Promise<void> {
    return this.catalogue.watch().then(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.catalogue.close();
    await this.sessions.close();
  }

  /** Ids (`namespace@version`) of the versions whose executor has been started: eager ones at once, lazy ones at first use. */
  started(): string[] {
    return this.catalogue
      .list()
      .filter((e) => this.sessions.started(e))
      .map((e) => `${e.namespace}@${e.version}`);
  }

  /** Called when the person's choices change: switched-off plugins leave, read-only marks apply. */
  choicesChanged(): void {
    if (!this.closed) this.sync();
  }

  private toolDeps(learnt: ProbeLearnt = {}): PluginToolDeps & ExecutorDeps {
    return {
      ...this.o.tools,
      sessions: this.sessions,
      learnt,
      readOnlyMarked: (toolId, version) => this.o.choices?.readOnlyMarked(toolId, version) ?? false,
    };
  }

  list(): PluginInfo[] {
    return this.infos;
  }

  private sync(): void {
    const entries = this.catalogue.list();
    const reasons = new Map<string, string[]>();
    // Per namespace, the versions that may run: checked, runnable, probed and self-tested.
    const candidates = new Map<string, PluginEntry[]>();
    // Versions whose probe or self-tests are running use executors of their own meanwhile.
    const checking: PluginEntry[] = [];
    for (const entry of entries) {
      const key = `${entry.namespace}@${entry.version}`;
      if (entry.state !== 'available' || !entry.manifest) continue;
      const problem = unrunnableReason(entry.manifest);
      const checked = problem ? [problem] : this.checked(entry);
      if (checked === null) checking.push(entry);
      if (checked === null || checked.length) {
        reasons.set(key, checked ?? ['its checks are running (connectivity, self-tests)']);
        continue;
      }
      candidates.set(entry.namespace, [...(candidates.get(entry.namespace) ?? []), entry]);
    }
    const switchedOff = new Set([...candidates.keys()].filter((ns) => this.o.choices?.isEnabled(ns) === false));
    const resolved = resolveDependencies(candidates, switchedOff);
    for (const [key, reason] of resolved.reasons) reasons.set(key, [reason]);
    const next = new Map<string, string>();
    for (const [namespace, versions] of resolved.kept) {
      versions.sort((a, b) => compareVersions(b.version, a.version));
      // New conversations get the newest version that is not deprecated (else the newest).
      const current = versions.find((v) => !isDeprecated(v)) ?? versions[0]!;
      const set = this.o.registry.setGroup(`plugin:${namespace}`, this.definitions(current));
      if (!set.ok) {
        for (const v of versions) reasons.set(`${namespace}@${v.version}`, [set.reason]);
        this.o.registry.setAlternates(namespace, new Map());
        continue;
      }
      next.set(namespace, current.version);
      // Older (or deprecated) versions stay for the conversations pinned to them.
      const others = new Map(versions.filter((v) => v !== current).map((v) => [v.version, this.definitions(v)]));
      for (const [version, reason] of this.o.registry.setAlternates(namespace, others)) reasons.set(`${namespace}@${version}`, [reason]);
      for (const v of versions) if (v.manifest?.load === 'eager') this.sessions.warm(v);
    }
    // Namespaces gone (removed, broken, unrunnable, switched off) take their tools with them.
    for (const namespace of this.current.keys()) {
      if (next.has(namespace)) continue;
      this.o.registry.setGroup(`plugin:${namespace}`, []);
      this.o.registry.setAlternates(namespace, new Map());
    }
    // Executors of versions no longer offered (removed, edited, switched off) are stopped.
    this.sessions.retain([...[...resolved.kept.values()].flat(), ...checking]);
    this.current = next;
    this.infos = entries.map((e) => this.info(e, reasons.get(`${e.namespace}@${e.version}`)));
    this.o.changed(this.infos, this.current);
  }

  /** Tool declarations of a checked version, with what its probe learnt (an MCP server's schemas). */
  private definitions(entry: PluginEntry): ToolDefinition[] {
    const learnt = this.checks.get(checkKey(entry));
    return pluginToolDefinitions(entry, this.toolDeps(learnt && learnt !== null ? learnt.learnt : undefined));
  }

  /** namespace → the version new conversations get (the one a conversation pins when it first meets the plugin). */
  currentVersions(): ReadonlyMap<string, string> {
    return this.current;
  }

  /**
   * Before its tools are offered, a version's endpoints must answer (the connectivity probe
   * of its http, grpc and mcp executors) and its own test cases must pass. Both run once per
   * content of the plugin (an edit runs them again), off the reload path: null until done.
   */
  private checked(entry: PluginEntry): string[] | null {
    const key = checkKey(entry);
    const known = this.checks.get(key);
    if (known !== undefined) return known === null ? null : known.problems;
    this.checks.set(key, null);
    void this.runChecks(entry)
      .catch((err: unknown) => ({
        problems: [`its checks could not run: ${err instanceof Error ? err.message : String(err)}`],
        learnt: {},
      }))
      .then((outcome) => {
        this.checks.set(key, outcome);
        if (!this.closed) this.sync();
      });
    return null;
  }

  /**
   * The connectivity probe of the version's endpoints. An eager plugin's MCP servers stay
   * open in the pool for its first call; a lazy one's are closed after the probe.
   */
  private async probe(entry: PluginEntry): Promise<CheckOutcome> {
    const eager = entry.manifest?.load === 'eager';
    const found = await probeExecutors(entry, {
      ...(this.o.tools.egress ? { egress: this.o.tools.egress } : {}),
      ...(eager ? { sessions: this.sessions.mcpPool } : {}),
    });
    return { problems: found.problems, learnt: found.mcpSchemas.size ? { mcpParameters: Object.fromEntries(found.mcpSchemas) } : {} };
  }

  private async runChecks(entry: PluginEntry): Promise<CheckOutcome> {
    const probed = await (this.o.probe ?? ((e) => this.probe(e)))(entry);
    if (probed.problems.length) return probed;
    if (entry.tests.length === 0) return probed;
    // Self-tests write to a scratch folder with executors of their own: a module host started
    // for them may write only there, so it must not serve the project's calls afterwards.
    const scratch = scratchOutputs();
    const sessions = new PluginSessions({
      ...this.o.runtime,
      outputsDir: () => scratch.dir,
      ...(this.o.tools.egress ? { egress: this.o.tools.egress } : {}),
    });
    try {
      const defs = pluginToolDefinitions(entry, { ...this.toolDeps(probed.learnt), sessions, outputsDir: () => scratch.dir });
      return { problems: await runSelfTests(entry.namespace, entry.tests, defs), learnt: probed.learnt };
    } finally {
      await sessions.close();
      scratch.dispose();
    }
  }

  private checkState(entry: PluginEntry): PluginInfo['checks']['state'] {
    if (entry.state !== 'available' || !entry.manifest) return 'none';
    const known = this.checks.get(checkKey(entry));
    if (known === undefined) return 'none';
    return known === null ? 'running' : known.problems.length ? 'failed' : 'passed';
  }

  private info(entry: PluginEntry, extraReasons: string[] = []): PluginInfo {
    const m = entry.manifest;
    const reasons = [...entry.reasons, ...extraReasons];
    // Commands and module hosts run under the sandbox where the machine has it.
    const runsCommands = m?.tools.some((t) => t.executor.type === 'command' || t.executor.type === 'module') ?? false;
    return {
      id: `${entry.namespace}@${entry.version}`,
      namespace: entry.namespace,
      version: entry.version,
      name: m?.name ?? entry.namespace,
      description: m?.description ?? '',
      origin: entry.origin,
      dir: entry.dir,
      state: reasons.length === 0 && entry.state === 'available' ? 'available' : 'unavailable',
      reasons,
      // The permission the policy applies: an MCP tool's after the person's mark.
      tools: (m?.tools ?? []).map((t) => {
        const id = pluginToolId(m!.namespace, t.name);
        const marked = this.o.choices?.readOnlyMarked(id, entry.version) ?? false;
        const permission = effectivePermission(t, marked);
        return {
          id,
          title: t.title,
          safety: permission.safety,
          riskLevel: t.risk_level,
          network: permission.network,
          executor: t.executor.type,
          ...(t.executor.type === 'mcp' ? { readOnlyMark: marked } : {}),
        };
      }),
      // An MCP server started over stdio runs as the person, never under the sandbox.
      sandboxed: m?.tools.some((t) => t.executor.type === 'mcp' && t.executor.stdio) ? false : runsCommands ? this.sandboxed : null,
      enabled: this.o.choices?.isEnabled(entry.namespace) ?? true,
      checks: { state: this.checkState(entry), selfTestCases: entry.tests.length, endpoints: endpointCount(m) },
    };
  }
}

/** Distinct endpoints a version's tools reach (what the connectivity probe tries). */
function endpointCount(manifest: PluginEntry['manifest']): number {
  const endpoints = new Set<string>();
  for (const t of manifest?.tools ?? []) {
    const ex = t.executor;
    if (ex.type === 'http') endpoints.add(new URL(ex.url).origin);
    if (ex.type === 'grpc') endpoints.add(ex.address);
    if (ex.type === 'mcp') endpoints.add(JSON.stringify(ex.stdio ?? ex.url));
  }
  return endpoints.size;
}

/** The content of a version, whose checks are run again when it changes. */
function checkKey(entry: PluginEntry): string {
  return JSON.stringify([entry.dir, entry.manifest, entry.tests]);
}

/** A version all of whose tools are deprecated is not given to new conversations. */
function isDeprecated(entry: PluginEntry): boolean {
  return entry.manifest?.tools.every((t) => t.deprecated !== false) ?? false;
}

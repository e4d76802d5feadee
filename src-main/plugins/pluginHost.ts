import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { pluginToolId } from '../../src-shared/plugins/pluginManifest.js';
import { compareVersions } from '../../src-shared/plugins/semver.js';
import type { ToolRegistry } from '../tool-host/toolRegistry.js';
import { sandboxSupport } from './executors/bwrapSandbox.js';
import { PluginCatalogue } from './pluginCatalogue.js';
import { pluginToolDefinitions, unrunnableReason, type PluginToolDeps } from './pluginTools.js';
import type { PluginEntry } from './readPluginRoot.js';
import { runSelfTests, scratchOutputs } from './selfTests.js';

export interface PluginHostOptions {
  home: string;
  projectPath: string;
  /** The repo's (or the package's) `plugins/`. */
  builtInDir: string;
  registry: Pick<ToolRegistry, 'setGroup' | 'setAlternates'>;
  tools: PluginToolDeps;
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
export class PluginHost {
  private readonly catalogue: PluginCatalogue;
  /** namespace → the version whose tools are the registry's current ones. */
  private current = new Map<string, string>();
  private infos: PluginInfo[] = [];
  /** Self-test outcomes by plugin content: null while the cases run, else what failed. */
  private readonly selfTests = new Map<string, string[] | null>();
  private sandboxed: boolean | null = null;
  private closed = false;

  constructor(private readonly o: PluginHostOptions) {
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

  close(): Promise<void> {
    this.closed = true;
    return this.catalogue.close();
  }

  list(): PluginInfo[] {
    return this.infos;
  }

  private sync(): void {
    const entries = this.catalogue.list();
    const reasons = new Map<string, string[]>();
    // Per namespace, the versions that may run: checked, runnable, self-tested; newest first.
    const runnable = new Map<string, PluginEntry[]>();
    for (const entry of entries) {
      const key = `${entry.namespace}@${entry.version}`;
      if (entry.state !== 'available' || !entry.manifest) continue;
      const problem = unrunnableReason(entry.manifest);
      const tested = problem ? [problem] : this.selfTested(entry);
      if (tested === null || tested.length) {
        reasons.set(key, tested ?? ['its self-tests are running']);
        continue;
      }
      runnable.set(entry.namespace, [...(runnable.get(entry.namespace) ?? []), entry]);
    }
    const next = new Map<string, string>();
    for (const [namespace, versions] of runnable) {
      versions.sort((a, b) => compareVersions(b.version, a.version));
      // New conversations get the newest version that is not deprecated (else the newest).
      const current = versions.find((v) => !isDeprecated(v)) ?? versions[0]!;
      const set = this.o.registry.setGroup(`plugin:${namespace}`, pluginToolDefinitions(current, this.o.tools));
      if (!set.ok) {
        for (const v of versions) reasons.set(`${namespace}@${v.version}`, [set.reason]);
        this.o.registry.setAlternates(namespace, new Map());
        continue;
      }
      next.set(namespace, current.version);
      // Older (or deprecated) versions stay for the conversations pinned to them.
      const others = new Map(versions.filter((v) => v !== current).map((v) => [v.version, pluginToolDefinitions(v, this.o.tools)]));
      for (const [version, reason] of this.o.registry.setAlternates(namespace, others)) reasons.set(`${namespace}@${version}`, [reason]);
    }
    // Namespaces gone (removed, broken, unrunnable) take their tools with them.
    for (const namespace of this.current.keys()) {
      if (next.has(namespace)) continue;
      this.o.registry.setGroup(`plugin:${namespace}`, []);
      this.o.registry.setAlternates(namespace, new Map());
    }
    this.current = next;
    this.infos = entries.map((e) => this.info(e, reasons.get(`${e.namespace}@${e.version}`)));
    this.o.changed(this.infos, this.current);
  }

  /** namespace → the version new conversations get (the one a conversation pins when it first meets the plugin). */
  currentVersions(): ReadonlyMap<string, string> {
    return this.current;
  }

  /**
   * A version's own test cases must pass before its tools are offered. They run once per
   * content of the plugin (an edit runs them again), off the reload path: null until done.
   */
  private selfTested(entry: PluginEntry): string[] | null {
    if (entry.tests.length === 0) return [];
    const key = JSON.stringify([entry.dir, entry.manifest, entry.tests]);
    if (this.selfTests.has(key)) return this.selfTests.get(key)!;
    this.selfTests.set(key, null);
    const scratch = scratchOutputs();
    const defs = pluginToolDefinitions(entry, { ...this.o.tools, outputsDir: () => scratch.dir });
    void runSelfTests(entry.namespace, entry.tests, defs)
      .catch((err: unknown) => [`self-tests could not run: ${err instanceof Error ? err.message : String(err)}`])
      .then((problems) => {
        scratch.dispose();
        this.selfTests.set(key, problems);
        if (!this.closed) this.sync();
      });
    return null;
  }

  private info(entry: PluginEntry, extraReasons: string[] = []): PluginInfo {
    const m = entry.manifest;
    const reasons = [...entry.reasons, ...extraReasons];
    const runsCommands = m?.tools.some((t) => t.executor.type === 'command') ?? false;
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
      tools: (m?.tools ?? []).map((t) => ({
        id: pluginToolId(m!.namespace, t.name),
        title: t.title,
        safety: t.safety,
        riskLevel: t.risk_level,
        network: t.network,
      })),
      sandboxed: runsCommands ? this.sandboxed : null,
    };
  }
}

/** A version all of whose tools are deprecated is not given to new conversations. */
function isDeprecated(entry: PluginEntry): boolean {
  return entry.manifest?.tools.every((t) => t.deprecated !== false) ?? false;
}

import { compareVersions } from '../../src-shared/plugins/semver.js';
import { ORIGIN_PRIORITY } from '../skills/readSkillRoot.js';
import { readPluginRoot, type PluginEntry, type PluginOrigin } from './readPluginRoot.js';
import { watchRootsDebounced, type RootsWatch } from './watchRoots.js';

export interface PluginRoot {
  dir: string;
  origin: PluginOrigin;
}

export interface PluginCatalogueOptions {
  /** Wait this long after the last file event before reloading. */
  debounceMs?: number;
}

/** Never watched inside a plugin: a module plugin's dependencies are no part of its package. */
const IGNORED = /(^|[/\\])node_modules([/\\]|$)/;

/**
 * The plugins found (static phase: read and checked, nothing run): built-in (the repo's
 * `plugins/`), the person's (`<home>/plugins`) and the project's (`plugins/` beside the project
 * file). Per namespace, the project's override the person's, which override the built-in ones
 * — the skills' rule — and a namespace's versions all stay listed, newest first. `watch()`
 * hot-loads changes; `onChange` listeners hear about every reload.
 */
export class PluginCatalogue {
  private everything: PluginEntry[] = [];
  private effective: PluginEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private watching: Promise<RootsWatch> | null = null;

  constructor(
    private readonly roots: readonly PluginRoot[],
    private readonly options: PluginCatalogueOptions = {},
  ) {
    this.reload();
  }

  /** Re-reads every root. Synchronous: manifests are a few small files. */
  reload(): void {
    const ordered = [...this.roots].sort((a, b) => ORIGIN_PRIORITY.indexOf(a.origin) - ORIGIN_PRIORITY.indexOf(b.origin));
    this.everything = ordered.flatMap((root) => readPluginRoot(root.dir, root.origin));
    this.effective = effectivePlugins(this.everything);
    for (const listener of this.listeners) listener();
  }

  /** The plugins in force, available or not: by namespace, newest version first. */
  list(): PluginEntry[] {
    return this.effective;
  }

  /** Every folder read, overridden ones included (for a panel that shows where each came from). */
  all(): PluginEntry[] {
    return this.everything;
  }

  /** The versions in force of one namespace, newest first. */
  versions(namespace: string): PluginEntry[] {
    return this.effective.filter((e) => e.namespace === namespace);
  }

  /** That version, available or not; without a version, the newest available one. */
  find(namespace: string, version?: string): PluginEntry | undefined {
    const versions = this.versions(namespace);
    return version === undefined ? versions.find((e) => e.state === 'available') : versions.find((e) => e.version === version);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts hot-loading; resolves once every root is watched. */
  async watch(): Promise<void> {
    this.watching ??= watchRootsDebounced(
      this.roots.map((r) => r.dir),
      () => this.reload(),
      { debounceMs: this.options.debounceMs ?? 150, ignore: IGNORED },
    );
    await this.watching;
  }

  /** Stops hot-loading, also when `watch()` is still starting (closing early must not leak watchers). */
  async close(): Promise<void> {
    const starting = this.watching;
    this.watching = null;
    const watch = await starting?.catch(() => null);
    await watch?.close();
  }
}

/**
 * Which entries are in force. For each namespace the highest origin holding an available
 * version wins, with all its versions; a broken override above it stays listed (unavailable,
 * with its reasons) so the person sees why their copy is not used; lower origins are hidden.
 * Two folders of one origin with the same version: the first (by folder name) is kept.
 */
export function effectivePlugins(entries: readonly PluginEntry[]): PluginEntry[] {
  const deduped = markDuplicates(entries);
  const rank = (e: PluginEntry) => ORIGIN_PRIORITY.indexOf(e.origin);
  const out: PluginEntry[] = [];
  for (const namespace of new Set(deduped.map((e) => e.namespace))) {
    const own = deduped.filter((e) => e.namespace === namespace);
    const available = own.filter((e) => e.state === 'available');
    const winner = Math.max(...(available.length ? available : own).map(rank));
    out.push(...own.filter((e) => rank(e) === winner || (rank(e) > winner && e.state === 'unavailable')));
  }
  return out.sort(
    (a, b) =>
      a.namespace.localeCompare(b.namespace) || compareVersions(b.version, a.version) || rank(b) - rank(a) || a.dir.localeCompare(b.dir),
  );
}

function markDuplicates(entries: readonly PluginEntry[]): PluginEntry[] {
  const first = new Map<string, PluginEntry>();
  return entries.map((e) => {
    if (e.state !== 'available') return e;
    const key = `${e.origin}\u0000${e.namespace}\u0000${e.version}`;
    const kept = first.get(key);
    if (!kept) {
      first.set(key, e);
      return e;
    }
    return { ...e, state: 'unavailable', reasons: [`version ${e.version} of ${e.namespace} is also in ${kept.dir}, which is used`] };
  });
}

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillLibrary } from '../../tools/skills/loadSkill.js';
import { ORIGIN_PRIORITY, readSkillRoot, type Skill, type SkillOrigin, type SkillProblem } from './readSkillRoot.js';
import { watchSkillRoot, type RootWatcher } from './watchSkillRoot.js';

export interface SkillRoot {
  dir: string;
  origin: SkillOrigin;
}

export interface SkillCatalogueOptions {
  /** Tool ids that exist; a skill naming another one is reported (and the id ignored). */
  knownToolIds?: () => ReadonlySet<string>;
  /** Wait this long after the last file event before reloading. */
  debounceMs?: number;
}

/** References are read on demand and cut at this size. */
const MAX_REFERENCE_CHARS = 20_000;

/**
 * The skills the agent can load: built-in (the repo's `skills/`), the person's (`<home>/skills`)
 * and the project's (beside the project file). A project skill overrides a user skill of the
 * same name, which overrides a built-in one; a broken override leaves the one below in place.
 * `watch()` hot-loads changes; `onChange` listeners hear about every reload.
 */
export class SkillCatalogue implements SkillLibrary {
  private effective = new Map<string, Skill>();
  private reported: SkillProblem[] = [];
  private readonly listeners = new Set<() => void>();
  private watchers: RootWatcher[] = [];
  private watching: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private knownToolIds: (() => ReadonlySet<string>) | undefined;
  private extraRoots: readonly SkillRoot[] = [];

  constructor(
    private readonly roots: readonly SkillRoot[],
    private readonly options: SkillCatalogueOptions = {},
  ) {
    this.knownToolIds = options.knownToolIds;
    this.reload();
  }

  /** For a registry built after the catalogue (it registers `skills_load_skill` over it); reloads. */
  checkToolsAgainst(knownToolIds: () => ReadonlySet<string>): void {
    this.knownToolIds = knownToolIds;
    this.reload();
  }

  /**
   * Skill folders that come and go with something else — a plugin's `skills/`, bound to its
   * tools — read with the same precedence as the fixed roots; reloads.
   */
  setExtraRoots(roots: readonly SkillRoot[]): void {
    this.extraRoots = roots;
    this.reload();
  }

  /** Re-reads every root. Synchronous: skills are a few small files. */
  reload(): void {
    const byName = new Map<string, Skill>();
    const problems: SkillProblem[] = [];
    const ordered = [...this.roots, ...this.extraRoots].sort(
      (a, b) => ORIGIN_PRIORITY.indexOf(a.origin) - ORIGIN_PRIORITY.indexOf(b.origin),
    );
    for (const root of ordered) {
      const read = readSkillRoot(root.dir, root.origin);
      problems.push(...read.problems);
      for (const skill of read.skills) byName.set(skill.name, skill);
    }
    const known = this.knownToolIds?.();
    if (known) {
      for (const skill of byName.values()) {
        const unknown = skill.toolIds.filter((id) => !known.has(id));
        if (unknown.length === 0) continue;
        problems.push({
          skill: skill.name,
          origin: skill.origin,
          file: join(skill.dir, 'SKILL.md'),
          severity: 'warning',
          message: `metadata.tools names tools that do not exist: ${unknown.join(', ')}`,
        });
        byName.set(skill.name, { ...skill, toolIds: skill.toolIds.filter((id) => known.has(id)) });
      }
    }
    this.effective = new Map([...byName.entries()].sort(([a], [b]) => a.localeCompare(b)));
    this.reported = problems;
    for (const listener of this.listeners) listener();
  }

  list(): Skill[] {
    return [...this.effective.values()];
  }

  names(): string[] {
    return [...this.effective.keys()];
  }

  find(name: string): Skill | undefined {
    return this.effective.get(name);
  }

  /** Problems of the last reload, bad skills by name; errors mean "not loaded". */
  problems(): SkillProblem[] {
    return this.reported;
  }

  /** The text of one file of a skill's `references/`, or null when it has no such file. */
  readReference(name: string, file: string): string | null {
    const skill = this.effective.get(name);
    // Only names listed at load time: never a path the model made up.
    if (!skill || !skill.references.includes(file)) return null;
    const path = join(skill.dir, 'references', file);
    try {
      if (statSync(path).size > MAX_REFERENCE_CHARS * 4) return `(${file} is too large to read here)`;
      const text = readFileSync(path, 'utf8');
      return text.length > MAX_REFERENCE_CHARS
        ? `${text.slice(0, MAX_REFERENCE_CHARS)}\n… (cut at ${MAX_REFERENCE_CHARS} characters)`
        : text;
    } catch {
      return null;
    }
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts hot-loading; resolves once every root is watched. */
  watch(): Promise<void> {
    this.watching ??= Promise.all(this.roots.map((root) => watchSkillRoot(root.dir, () => this.scheduleReload()))).then((watchers) => {
      this.watchers = watchers;
    });
    return this.watching;
  }

  /** Stops hot-loading, also when `watch()` is still starting (closing early must not leak watchers). */
  async close(): Promise<void> {
    const starting = this.watching;
    this.watching = null;
    await starting?.catch(() => {});
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const watchers = this.watchers;
    this.watchers = [];
    await Promise.all(watchers.map((w) => w.close()));
  }

  private scheduleReload(): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.watching) return; // closed
    this.timer = setTimeout(() => {
      this.timer = null;
      this.reload();
    }, this.options.debounceMs ?? 150);
  }
}

import type { PluginChoicesRepo } from '../store/pluginChoicesRepo.js';

/** What a change was, for listeners that care (the plugin host re-syncs on any). */
export type PluginChoiceChange =
  { kind: 'enabled'; namespace: string; enabled: boolean } | { kind: 'read-only'; toolId: string; version: string; readOnly: boolean };

/**
 * The person's plugin choices as the plugin host consults them: whether a plugin is switched on
 * in this project, and whether an MCP tool version is marked read-only. Read from the project's
 * repo once, then kept in memory and written through; listeners hear every real change (a
 * choice set to what it already was changes nothing and tells no one).
 */
export class PluginChoices {
  private readonly disabled: Set<string>;
  private readonly marks: Set<string>;
  private readonly listeners = new Set<(change: PluginChoiceChange) => void>();

  constructor(
    private readonly repo: Pick<PluginChoicesRepo, 'disabledNamespaces' | 'setEnabled' | 'markReadOnly' | 'readOnlyMarks'>,
    onChange?: (change: PluginChoiceChange) => void,
  ) {
    this.disabled = repo.disabledNamespaces();
    this.marks = repo.readOnlyMarks();
    if (onChange) this.listeners.add(onChange);
  }

  /** Whether the plugin's tools may be offered at all (every version of the namespace). */
  isEnabled(namespace: string): boolean {
    return !this.disabled.has(namespace);
  }

  /** Whether the person marked this version of a tool (`namespace.name`) read-only. */
  readOnlyMarked(toolId: string, version: string): boolean {
    return this.marks.has(markKey(toolId, version));
  }

  /** Switches a plugin on or off in this project. True when that changed anything. */
  setEnabled(namespace: string, enabled: boolean): boolean {
    if (this.isEnabled(namespace) === enabled) return false;
    this.repo.setEnabled(namespace, enabled);
    if (enabled) this.disabled.delete(namespace);
    else this.disabled.add(namespace);
    this.tell({ kind: 'enabled', namespace, enabled });
    return true;
  }

  /** Marks (or unmarks) one version of a tool read-only. True when that changed anything. */
  markReadOnly(toolId: string, version: string, readOnly: boolean): boolean {
    if (this.readOnlyMarked(toolId, version) === readOnly) return false;
    this.repo.markReadOnly(toolId, version, readOnly);
    if (readOnly) this.marks.add(markKey(toolId, version));
    else this.marks.delete(markKey(toolId, version));
    this.tell({ kind: 'read-only', toolId, version, readOnly });
    return true;
  }

  /** Listens to every change; returns the unsubscribe. */
  onChange(listener: (change: PluginChoiceChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private tell(change: PluginChoiceChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

function markKey(toolId: string, version: string): string {
  return `${toolId}@${version}`;
}

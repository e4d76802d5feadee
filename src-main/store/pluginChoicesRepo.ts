import type { Db } from './openProjectDb.js';

/** The one mark a tool can carry for now: the person says an MCP tool only reads. */
const READ_ONLY = 'read-only';

/** An approved origin: one tool's declared origins, for one definition (one plugin version). */
export interface OriginGrant {
  toolId: string;
  definitionHash: string;
  grantedAt: string;
}

/**
 * The person's plugin choices for this project (migration 6): plugins switched off (per
 * namespace, every version), MCP tools marked read-only (per tool and plugin version), and the
 * declared origins of `http` tools approved once per definition (a new version asks again).
 */
export class PluginChoicesRepo {
  constructor(private readonly db: Db) {}

  /** The namespaces switched off in this project. */
  disabledNamespaces(): Set<string> {
    const rows = this.db.prepare('SELECT namespace FROM plugin_disabled ORDER BY namespace').all() as { namespace: string }[];
    return new Set(rows.map((r) => r.namespace));
  }

  /** Switches a plugin (all its versions) on or off; idempotent. */
  setEnabled(namespace: string, enabled: boolean): void {
    if (enabled) this.db.prepare('DELETE FROM plugin_disabled WHERE namespace = ?').run(namespace);
    else this.db.prepare('INSERT OR IGNORE INTO plugin_disabled (namespace) VALUES (?)').run(namespace);
  }

  /** Marks (or unmarks) one version of a tool as read-only; idempotent. */
  markReadOnly(toolId: string, version: string, on: boolean): void {
    if (on)
      this.db.prepare('INSERT OR REPLACE INTO plugin_tool_marks (tool_id, version, mark) VALUES (?, ?, ?)').run(toolId, version, READ_ONLY);
    else this.db.prepare('DELETE FROM plugin_tool_marks WHERE tool_id = ? AND version = ? AND mark = ?').run(toolId, version, READ_ONLY);
  }

  /** Every read-only mark, as `toolId@version`. */
  readOnlyMarks(): Set<string> {
    const rows = this.db.prepare('SELECT tool_id, version FROM plugin_tool_marks WHERE mark = ?').all(READ_ONLY) as {
      tool_id: string;
      version: string;
    }[];
    return new Set(rows.map((r) => `${r.tool_id}@${r.version}`));
  }

  /** Whether the person approved the origins of this tool definition. */
  hasGrant(toolId: string, definitionHash: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM plugin_origin_grants WHERE tool_id = ? AND definition_hash = ?').get(toolId, definitionHash) !==
      undefined
    );
  }

  /** Records the approval of a tool definition's origins (the first one is kept). */
  grant(toolId: string, definitionHash: string, at: Date = new Date()): void {
    this.db
      .prepare('INSERT OR IGNORE INTO plugin_origin_grants (tool_id, definition_hash, granted_at) VALUES (?, ?, ?)')
      .run(toolId, definitionHash, at.toISOString());
  }

  /** Every approval, oldest first. */
  grants(): OriginGrant[] {
    const rows = this.db
      .prepare('SELECT tool_id, definition_hash, granted_at FROM plugin_origin_grants ORDER BY granted_at, tool_id, definition_hash')
      .all() as { tool_id: string; definition_hash: string; granted_at: string }[];
    return rows.map((r) => ({ toolId: r.tool_id, definitionHash: r.definition_hash, grantedAt: r.granted_at }));
  }
}

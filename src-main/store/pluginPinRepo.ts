import type { Db } from './openProjectDb.js';

/**
 * The plugin versions each conversation runs with: pinned the first time the conversation
 * meets a plugin, kept when a newer version arrives (DESIGN §6).
 */
export class PluginPinRepo {
  constructor(private readonly db: Db) {}

  /** namespace → version for one conversation. */
  of(conversationId: string): Map<string, string> {
    const rows = this.db.prepare('SELECT namespace, version FROM plugin_pins WHERE conversation_id = ?').all(conversationId) as {
      namespace: string;
      version: string;
    }[];
    return new Map(rows.map((r) => [r.namespace, r.version]));
  }

  /** Pins `version` unless the conversation already has a version of `namespace`. */
  pin(conversationId: string, namespace: string, version: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO plugin_pins (conversation_id, namespace, version) VALUES (?, ?, ?)')
      .run(conversationId, namespace, version);
  }
}

import { Layer } from '../../src-shared/domain/layer.js';
import type { Db } from './openProjectDb.js';
import type { LayerRepo } from './layerRepo.js';

export interface SnapshotInfo {
  id: number;
  at: string;
  runId: string | null;
  toolId: string;
  summary: string;
}

/**
 * Undo: the project's layers (with styles and order) saved before each approved change.
 * Restoring puts them back exactly; files written by tools stay on disk, out of the project.
 */
export class SnapshotRepo {
  constructor(
    private readonly db: Db,
    private readonly layers: LayerRepo,
  ) {}

  take(input: { runId: string | null; conversationId: string | null; toolId: string; summary: string }): number {
    const result = this.db
      .prepare('INSERT INTO snapshots (at, run_id, conversation_id, tool_id, summary, layers) VALUES (?, ?, ?, ?, ?, ?)')
      .run(new Date().toISOString(), input.runId, input.conversationId, input.toolId, input.summary, JSON.stringify(this.layers.list()));
    return Number(result.lastInsertRowid);
  }

  latest(): SnapshotInfo | null {
    const row = this.db.prepare('SELECT id, at, run_id, tool_id, summary FROM snapshots ORDER BY id DESC LIMIT 1').get() as
      { id: number; at: string; run_id: string | null; tool_id: string; summary: string } | undefined;
    return row ? { id: row.id, at: row.at, runId: row.run_id, toolId: row.tool_id, summary: row.summary } : null;
  }

  /** The snapshots taken during the most recent run that changed anything, oldest first. */
  lastRun(): SnapshotInfo[] {
    const latest = this.latest();
    if (!latest?.runId) return latest ? [latest] : [];
    const rows = this.db
      .prepare('SELECT id, at, run_id, tool_id, summary FROM snapshots WHERE run_id = ? ORDER BY id')
      .all(latest.runId) as {
      id: number;
      at: string;
      run_id: string | null;
      tool_id: string;
      summary: string;
    }[];
    return rows.map((r) => ({ id: r.id, at: r.at, runId: r.run_id, toolId: r.tool_id, summary: r.summary }));
  }

  /** Puts the layers back as they were in snapshot `id` and forgets it and every later one. */
  restore(id: number): Layer[] {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT layers FROM snapshots WHERE id = ?').get(id) as { layers: string } | undefined;
      if (!row) throw new Error(`No snapshot ${id}`);
      const layers = (JSON.parse(row.layers) as unknown[]).map((l) => Layer.parse(l));
      this.layers.replaceAll(layers);
      this.db.prepare('DELETE FROM snapshots WHERE id >= ?').run(id);
      return this.layers.list();
    })();
  }
}

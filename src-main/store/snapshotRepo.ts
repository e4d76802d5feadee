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

/** A working copy a change edited: its journal holds the change's inverse under the snapshot's id. */
export interface DataChange {
  /** The working copy's file. */
  source: string;
  /** Its table (the layer's name inside the GeoPackage). */
  table: string;
}

/** The project's annotations as one JSON text, kept with each snapshot (annotationRepo.ts). */
export interface SnapshotPart {
  snapshot(): string;
  restore(json: string): void;
}

interface SnapshotRow {
  id: number;
  at: string;
  run_id: string | null;
  tool_id: string;
  summary: string;
}

/**
 * Undo: the project's layers (with styles and order) and annotations saved before each approved
 * change. Restoring puts them back exactly. A change that edited data records which working
 * copies it touched (`recordDataChange`); their journals are undone by the caller before the
 * restore (tool-host/commands.ts), since that needs the GIS worker. Files written by tools stay
 * on disk, out of the project.
 */
export class SnapshotRepo {
  private annotations: SnapshotPart | null = null;

  constructor(
    private readonly db: Db,
    private readonly layers: LayerRepo,
  ) {}

  /** The annotations travel with every snapshot once their repo is attached. */
  attachAnnotations(part: SnapshotPart): void {
    this.annotations = part;
  }

  take(input: { runId: string | null; conversationId: string | null; toolId: string; summary: string }): number {
    const result = this.db
      .prepare('INSERT INTO snapshots (at, run_id, conversation_id, tool_id, summary, layers, annotations) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(
        new Date().toISOString(),
        input.runId,
        input.conversationId,
        input.toolId,
        input.summary,
        this.layersJson(),
        this.annotations?.snapshot() ?? null,
      );
    return Number(result.lastInsertRowid);
  }

  /**
   * Forgets snapshot `id` when its change left nothing to undo (it failed before changing
   * anything): the latest snapshot, no data change recorded, and layers and annotations as they
   * were. An undo entry that restores the same state would only confuse. True when forgotten.
   */
  discardIfUnchanged(id: number): boolean {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT id, layers, annotations, data_changes FROM snapshots ORDER BY id DESC LIMIT 1').get() as
        { id: number; layers: string; annotations: string | null; data_changes: string | null } | undefined;
      if (!row || row.id !== id || row.data_changes !== null) return false;
      if (row.layers !== this.layersJson()) return false;
      if (row.annotations !== (this.annotations?.snapshot() ?? null)) return false;
      this.db.prepare('DELETE FROM snapshots WHERE id = ?').run(id);
      return true;
    })();
  }

  /** Notes that the change of snapshot `id` edited `change` (its journal's transaction id is `id`). */
  recordDataChange(id: number, change: DataChange): void {
    this.db.transaction(() => {
      const row = this.db.prepare('SELECT data_changes FROM snapshots WHERE id = ?').get(id) as { data_changes: string | null } | undefined;
      if (!row) throw new Error(`No snapshot ${id}`);
      const list = row.data_changes ? (JSON.parse(row.data_changes) as DataChange[]) : [];
      const stored = { ...change, source: this.layers.paths.toStored(change.source) };
      if (!list.some((c) => c.source === stored.source && c.table === stored.table)) list.push(stored);
      this.db.prepare('UPDATE snapshots SET data_changes = ? WHERE id = ?').run(JSON.stringify(list), id);
    })();
  }

  /** The data changes of snapshot `id` and every later one, newest first: what undoing to `id` must revert. */
  dataChangesFrom(id: number): { id: number; changes: DataChange[] }[] {
    const rows = this.db
      .prepare('SELECT id, data_changes FROM snapshots WHERE id >= ? AND data_changes IS NOT NULL ORDER BY id DESC')
      .all(id) as { id: number; data_changes: string }[];
    return rows.map((r) => ({
      id: r.id,
      changes: (JSON.parse(r.data_changes) as DataChange[]).map((c) => ({ ...c, source: this.layers.paths.fromStored(c.source) })),
    }));
  }

  latest(): SnapshotInfo | null {
    const row = this.db.prepare('SELECT id, at, run_id, tool_id, summary FROM snapshots ORDER BY id DESC LIMIT 1').get() as
      SnapshotRow | undefined;
    return row ? toInfo(row) : null;
  }

  /** The snapshots taken during the most recent run that changed anything, oldest first. */
  lastRun(): SnapshotInfo[] {
    const latest = this.latest();
    if (!latest?.runId) return latest ? [latest] : [];
    const rows = this.db
      .prepare('SELECT id, at, run_id, tool_id, summary FROM snapshots WHERE run_id = ? ORDER BY id')
      .all(latest.runId) as SnapshotRow[];
    return rows.map(toInfo);
  }

  /** Puts the layers (and annotations) back as they were in snapshot `id` and forgets it and every later one. */
  restore(id: number): Layer[] {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT layers, annotations FROM snapshots WHERE id = ?').get(id) as
        { layers: string; annotations: string | null } | undefined;
      if (!row) throw new Error(`No snapshot ${id}`);
      const layers = (JSON.parse(row.layers) as unknown[]).map((l) => this.layers.loaded(Layer.parse(l)));
      this.layers.replaceAll(layers);
      if (row.annotations !== null) this.annotations?.restore(row.annotations);
      this.db.prepare('DELETE FROM snapshots WHERE id >= ?').run(id);
      return this.layers.list();
    })();
  }

  /** The project's layers as a snapshot keeps them (stored paths). */
  private layersJson(): string {
    return JSON.stringify(this.layers.list().map((l) => this.layers.stored(l)));
  }
}

function toInfo(r: SnapshotRow): SnapshotInfo {
  return { id: r.id, at: r.at, runId: r.run_id, toolId: r.tool_id, summary: r.summary };
}

import { randomUUID } from 'node:crypto';
import { Layer, LayerInfo } from '../../src-shared/domain/layer.js';
import { LayerStyle } from '../../src-shared/style/styleModel.js';
import type { Db } from './openProjectDb.js';
import { ABSOLUTE_PATHS, type SourcePaths } from './projectRelativePaths.js';

interface LayerRow {
  id: string;
  name: string;
  source: string;
  sublayer: string | null;
  kind: string;
  ord: number;
  visible: number;
  opacity: number;
  style: string;
  info: string;
  editing: string | null;
  data_revision: number | null;
}

export type NewLayer = Omit<Layer, 'id' | 'order' | 'visible' | 'opacity'> & Partial<Pick<Layer, 'visible' | 'opacity'>>;
export type LayerPatch = Partial<Pick<Layer, 'name' | 'visible' | 'opacity' | 'style'>>;
/** What switching a layer to (or within) its working copy changes. */
export type LayerDataPatch = Pick<Layer, 'source' | 'sublayer' | 'info'> & { editing: Layer['editing']; dataRevision?: number };

/**
 * The project's layers. Every write is one transaction, so the stack order stays dense
 * (0..n-1) and a killed process never leaves half a change.
 */
export class LayerRepo {
  /**
   * Readers always get absolute paths; the file keeps a source below the project's folder
   * relative to it (projectRelativePaths.ts), so a moved project folder still finds its data.
   */
  constructor(
    private readonly db: Db,
    readonly paths: SourcePaths = ABSOLUTE_PATHS,
  ) {}

  list(): Layer[] {
    const rows = this.db.prepare('SELECT * FROM layers ORDER BY ord').all() as LayerRow[];
    return rows.map((r) => this.toLayer(r));
  }

  get(id: string): Layer | undefined {
    const row = this.db.prepare('SELECT * FROM layers WHERE id = ?').get(id) as LayerRow | undefined;
    return row ? this.toLayer(row) : undefined;
  }

  /** A layer as the project file keeps it (relative paths), for snapshots. */
  stored(layer: Layer): Layer {
    return mapLayerPaths(layer, (p) => this.paths.toStored(p));
  }

  /** A stored layer (from a snapshot) with absolute paths again. */
  loaded(layer: Layer): Layer {
    return mapLayerPaths(layer, (p) => this.paths.fromStored(p));
  }

  add(input: NewLayer): Layer {
    const id = randomUUID();
    this.db.transaction(() => {
      const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM layers').get() as { n: number };
      this.db
        .prepare(
          `INSERT INTO layers (id, name, source, sublayer, kind, ord, visible, opacity, style, info, created_at)
           VALUES (@id, @name, @source, @sublayer, @kind, @ord, @visible, @opacity, @style, @info, @created_at)`,
        )
        .run({
          id,
          name: input.name,
          source: this.paths.toStored(input.source),
          sublayer: input.sublayer,
          kind: input.kind,
          ord: n,
          visible: input.visible === false ? 0 : 1,
          opacity: input.opacity ?? 1,
          style: JSON.stringify(LayerStyle.parse(input.style)),
          info: JSON.stringify(LayerInfo.parse(input.info)),
          created_at: new Date().toISOString(),
        });
    })();
    return this.get(id)!;
  }

  update(id: string, patch: LayerPatch): Layer {
    const layer = this.get(id);
    if (!layer) throw new Error(`No layer with id ${id}`);
    const next = Layer.parse({ ...layer, ...patch });
    this.db
      .prepare('UPDATE layers SET name = ?, visible = ?, opacity = ?, style = ? WHERE id = ?')
      .run(next.name, next.visible ? 1 : 0, next.opacity, JSON.stringify(next.style), id);
    return next;
  }

  /** Points a layer at other data (its working copy, a new revision of it): issue #14. */
  setData(id: string, patch: LayerDataPatch): Layer {
    const layer = this.get(id);
    if (!layer) throw new Error(`No layer with id ${id}`);
    const next = Layer.parse({ ...layer, ...patch });
    this.db
      .prepare('UPDATE layers SET source = ?, sublayer = ?, info = ?, editing = ?, data_revision = ? WHERE id = ?')
      .run(
        this.paths.toStored(next.source),
        next.sublayer,
        JSON.stringify(next.info),
        this.editingJson(next),
        next.dataRevision ?? null,
        id,
      );
    return next;
  }

  remove(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM layers WHERE id = ?').run(id);
      this.renumber(this.list().map((l) => l.id));
    })();
  }

  /** Moves a layer to `toOrder` (0 = bottom), shifting the others. */
  move(id: string, toOrder: number): Layer[] {
    this.db.transaction(() => {
      const ids = this.list().map((l) => l.id);
      const from = ids.indexOf(id);
      if (from < 0) throw new Error(`No layer with id ${id}`);
      ids.splice(from, 1);
      ids.splice(Math.max(0, Math.min(ids.length, toOrder)), 0, id);
      this.renumber(ids);
    })();
    return this.list();
  }

  /** Replaces every layer by `layers` (ids, order, styles kept exactly): undo's restore. */
  replaceAll(layers: Layer[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM layers').run();
      const insert = this.db.prepare(
        `INSERT INTO layers (id, name, source, sublayer, kind, ord, visible, opacity, style, info, editing, data_revision, created_at)
         VALUES (@id, @name, @source, @sublayer, @kind, @ord, @visible, @opacity, @style, @info, @editing, @data_revision, @created_at)`,
      );
      for (const l of layers) {
        insert.run({
          id: l.id,
          name: l.name,
          source: this.paths.toStored(l.source),
          sublayer: l.sublayer,
          kind: l.kind,
          ord: l.order,
          visible: l.visible ? 1 : 0,
          opacity: l.opacity,
          style: JSON.stringify(l.style),
          info: JSON.stringify(l.info),
          editing: this.editingJson(l),
          data_revision: l.dataRevision ?? null,
          created_at: new Date().toISOString(),
        });
      }
    })();
  }

  private editingJson(l: Layer): string | null {
    return l.editing ? JSON.stringify({ ...l.editing, originalSource: this.paths.toStored(l.editing.originalSource) }) : null;
  }

  private toLayer(row: LayerRow): Layer {
    return this.loaded(rowToLayer(row));
  }

  private renumber(ids: string[]): void {
    const stmt = this.db.prepare('UPDATE layers SET ord = ? WHERE id = ?');
    ids.forEach((layerId, index) => stmt.run(index, layerId));
  }
}

/** The layer with `f` applied to each path it holds (its source, the original of a working copy). */
export function mapLayerPaths(layer: Layer, f: (path: string) => string): Layer {
  return {
    ...layer,
    source: f(layer.source),
    ...(layer.editing ? { editing: { ...layer.editing, originalSource: f(layer.editing.originalSource) } } : {}),
  };
}

function rowToLayer(row: LayerRow): Layer {
  return Layer.parse({
    id: row.id,
    name: row.name,
    source: row.source,
    sublayer: row.sublayer,
    kind: row.kind,
    order: row.ord,
    visible: row.visible === 1,
    opacity: row.opacity,
    style: JSON.parse(row.style),
    info: JSON.parse(row.info),
    ...(row.editing ? { editing: JSON.parse(row.editing) } : {}),
    ...(row.data_revision !== null && row.data_revision !== undefined ? { dataRevision: row.data_revision } : {}),
  });
}

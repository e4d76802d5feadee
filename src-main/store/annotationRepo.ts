import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Annotation, type AnnotationGeometry } from '../../src-shared/domain/annotation.js';
import type { Db } from './openProjectDb.js';
import type { SnapshotPart } from './snapshotRepo.js';

interface AnnotationRow {
  id: string;
  kind: string;
  text: string;
  geometry: string;
  color: string;
  ord: number;
  created_by: string;
  created_at: string;
}

export type NewAnnotation = Pick<Annotation, 'kind' | 'text' | 'geometry' | 'color' | 'createdBy'>;

const AnnotationList = z.array(Annotation);

/**
 * The project's annotations (issue #14). Every value passes the `Annotation` schema on the
 * way in and out, so a note never holds a polygon and no write leaves half a change. It is a
 * snapshot part: undo saves and restores the whole list with the layers (snapshotRepo.ts).
 */
export class AnnotationRepo implements SnapshotPart {
  constructor(private readonly db: Db) {}

  list(): Annotation[] {
    const rows = this.db.prepare('SELECT * FROM annotations ORDER BY ord').all() as AnnotationRow[];
    return rows.map(toAnnotation);
  }

  get(id: string): Annotation | undefined {
    const row = this.db.prepare('SELECT * FROM annotations WHERE id = ?').get(id) as AnnotationRow | undefined;
    return row ? toAnnotation(row) : undefined;
  }

  /** Adds one on top of the others. */
  add(input: NewAnnotation): Annotation {
    return this.db.transaction(() => {
      const { n } = this.db.prepare('SELECT COALESCE(MAX(ord) + 1, 0) AS n FROM annotations').get() as { n: number };
      const annotation = Annotation.parse({ ...input, id: randomUUID(), order: n, createdAt: new Date().toISOString() });
      this.insert(annotation);
      return annotation;
    })();
  }

  /** Moves one: the new geometry must be of its kind. */
  updateGeometry(id: string, geometry: AnnotationGeometry): Annotation {
    const next = Annotation.parse({ ...this.require(id), geometry });
    this.db.prepare('UPDATE annotations SET geometry = ? WHERE id = ?').run(JSON.stringify(next.geometry), id);
    return next;
  }

  updateText(id: string, text: string): Annotation {
    const next = Annotation.parse({ ...this.require(id), text });
    this.db.prepare('UPDATE annotations SET text = ? WHERE id = ?').run(next.text, id);
    return next;
  }

  /** Deletes one; the order of the others stays dense (0..n-1). */
  remove(id: string): void {
    this.db.transaction(() => {
      const gone = this.require(id);
      this.db.prepare('DELETE FROM annotations WHERE id = ?').run(id);
      this.db.prepare('UPDATE annotations SET ord = ord - 1 WHERE ord > ?').run(gone.order);
    })();
  }

  /** Puts back exactly this list (ids, order and all). */
  replaceAll(list: readonly Annotation[]): void {
    const checked = AnnotationList.parse(list);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM annotations').run();
      for (const a of checked) this.insert(a);
    })();
  }

  snapshot(): string {
    return JSON.stringify(this.list());
  }

  restore(json: string): void {
    this.replaceAll(AnnotationList.parse(JSON.parse(json)));
  }

  private require(id: string): Annotation {
    const found = this.get(id);
    if (!found) throw new Error(`No annotation with id ${id}`);
    return found;
  }

  private insert(a: Annotation): void {
    this.db
      .prepare(
        `INSERT INTO annotations (id, kind, text, geometry, color, ord, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(a.id, a.kind, a.text, JSON.stringify(a.geometry), a.color, a.order, a.createdBy, a.createdAt);
  }
}

function toAnnotation(r: AnnotationRow): Annotation {
  return Annotation.parse({
    id: r.id,
    kind: r.kind,
    text: r.text,
    geometry: JSON.parse(r.geometry),
    color: r.color,
    order: r.ord,
    createdBy: r.created_by,
    createdAt: r.created_at,
  });
}

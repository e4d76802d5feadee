import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { Memory, MemoryScope, MemoryText } from '../../src-shared/domain/memory.js';

/**
 * The `memories` table of the app's own database (`<home>/mapwright.sqlite`, see
 * appSettingsDb.ts for its migration): a project memory is keyed by the project file's path,
 * a user memory by nothing. Every text passes `MemoryText` here too, whoever calls, so the table
 * never holds an empty, multi-line or over-long memory. Rows are read back through zod.
 */
export const MEMORIES_MIGRATION = `CREATE TABLE memories (
     id TEXT PRIMARY KEY,
     scope TEXT NOT NULL CHECK (scope IN ('user', 'project')),
     project TEXT,
     text TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     CHECK ((scope = 'user') = (project IS NULL))
   );
   CREATE INDEX memories_by_project ON memories (project);`;

export interface MemoryRepo {
  /** The person's memories and those of `project`, newest (last edited) first. */
  list(project: string): Memory[];
  get(id: string): (Memory & { project: string | null }) | undefined;
  add(input: { scope: MemoryScope; project: string; text: string }): Memory;
  /** Replaces the text; undefined when there is no such memory. */
  update(id: string, text: string): Memory | undefined;
  /** True when a memory was deleted. */
  remove(id: string): boolean;
}

interface Row {
  id: string;
  scope: string;
  project: string | null;
  text: string;
  created_at: string;
  updated_at: string;
}

const rowToMemory = (r: Row): Memory =>
  Memory.parse({ id: r.id, scope: r.scope, text: r.text, createdAt: r.created_at, updatedAt: r.updated_at });

export function createMemoryRepo(db: Database.Database, now: () => Date = () => new Date()): MemoryRepo {
  const list = db.prepare(
    'SELECT * FROM memories WHERE project IS NULL OR project = ? ORDER BY updated_at DESC, created_at DESC, rowid DESC',
  );
  const get = db.prepare('SELECT * FROM memories WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO memories (id, scope, project, text, created_at, updated_at) VALUES (@id, @scope, @project, @text, @at, @at)',
  );
  const update = db.prepare('UPDATE memories SET text = ?, updated_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM memories WHERE id = ?');

  return {
    list: (project) => (list.all(project) as Row[]).map(rowToMemory),
    get(id) {
      const row = get.get(id) as Row | undefined;
      return row ? { ...rowToMemory(row), project: row.project } : undefined;
    },
    add({ scope, project, text }) {
      const id = randomUUID();
      insert.run({
        id,
        scope: MemoryScope.parse(scope),
        project: scope === 'project' ? project : null,
        text: MemoryText.parse(text),
        at: now().toISOString(),
      });
      return rowToMemory(get.get(id) as Row);
    },
    update(id, text) {
      const changed = update.run(MemoryText.parse(text), now().toISOString(), id).changes;
      return changed ? rowToMemory(get.get(id) as Row) : undefined;
    },
    remove: (id) => remove.run(id).changes > 0,
  };
}

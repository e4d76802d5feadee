import type Database from 'better-sqlite3';
import { openSqlite, type SqliteOpenOptions } from './openSqlite.js';

export type Db = Database.Database;

/**
 * Schema migrations, applied in order; `user_version` records how many ran. Append only:
 * an existing project file must open in every later version.
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE project (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE layers (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     source TEXT NOT NULL,
     sublayer TEXT,
     kind TEXT NOT NULL CHECK (kind IN ('vector', 'raster')),
     ord INTEGER NOT NULL,
     visible INTEGER NOT NULL,
     opacity REAL NOT NULL,
     style TEXT NOT NULL,
     info TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE conversations (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE messages (
     id TEXT PRIMARY KEY,
     conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     role TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (conversation_id, seq)
   );
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // 2: the tool layer — every call audited, a snapshot of the layers before every change.
  `CREATE TABLE audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     conversation_id TEXT,
     run_id TEXT,
     caller TEXT NOT NULL,
     tool_id TEXT NOT NULL,
     tool_version TEXT,
     definition_hash TEXT,
     args TEXT NOT NULL,
     decision TEXT NOT NULL,
     decided_by TEXT NOT NULL,
     outcome TEXT NOT NULL,
     error_code TEXT,
     duration_ms INTEGER
   );
   CREATE INDEX audit_tool ON audit (tool_id);
   CREATE TABLE snapshots (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     run_id TEXT,
     conversation_id TEXT,
     tool_id TEXT NOT NULL,
     summary TEXT NOT NULL,
     layers TEXT NOT NULL
   );`,
  // 3: plain tables (attributes without geometry) are layers of kind 'table'. SQLite cannot
  // alter a CHECK constraint, so the layers table is rebuilt with its rows.
  `CREATE TABLE layers_v3 (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     source TEXT NOT NULL,
     sublayer TEXT,
     kind TEXT NOT NULL CHECK (kind IN ('vector', 'raster', 'table')),
     ord INTEGER NOT NULL,
     visible INTEGER NOT NULL,
     opacity REAL NOT NULL,
     style TEXT NOT NULL,
     info TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   INSERT INTO layers_v3 SELECT id, name, source, sublayer, kind, ord, visible, opacity, style, info, created_at FROM layers;
   DROP TABLE layers;
   ALTER TABLE layers_v3 RENAME TO layers;`,
  // 4: a conversation keeps the plugin versions it started with (plugins/pluginPins.ts).
  `CREATE TABLE plugin_pins (
     conversation_id TEXT NOT NULL,
     namespace TEXT NOT NULL,
     version TEXT NOT NULL,
     PRIMARY KEY (conversation_id, namespace)
   );`,
  // 5: a call made by an outside MCP client records which client (mcp-server/).
  `ALTER TABLE audit ADD COLUMN client TEXT;`,
  // 6: the person's plugin choices for this project: plugins switched off, MCP tools marked
  // read-only (per plugin version), declared origins approved once per plugin version.
  `CREATE TABLE plugin_disabled (
     namespace TEXT PRIMARY KEY
   );
   CREATE TABLE plugin_tool_marks (
     tool_id TEXT NOT NULL,
     version TEXT NOT NULL,
     mark TEXT NOT NULL,
     PRIMARY KEY (tool_id, version)
   );
   CREATE TABLE plugin_origin_grants (
     tool_id TEXT NOT NULL,
     definition_hash TEXT NOT NULL,
     granted_at TEXT NOT NULL,
     PRIMARY KEY (tool_id, definition_hash)
   );`,
  // 7: network origins the person approved for this project's map sources (XYZ, WMS, WMTS,
  // COG/FlatGeobuf over HTTP): asked once per origin, then remembered here for that origin only.
  `CREATE TABLE network_origin_grants (
     origin TEXT PRIMARY KEY,
     granted_at TEXT NOT NULL
   );`,
  // 8: editing (issue #14). A layer being edited points at its working copy and remembers its
  // original (layers.editing, JSON); a snapshot lists the working copies its change edited
  // (undone through their journals) and holds the annotations as they were.
  `ALTER TABLE layers ADD COLUMN editing TEXT;
   ALTER TABLE snapshots ADD COLUMN data_changes TEXT;
   ALTER TABLE snapshots ADD COLUMN annotations TEXT;
   CREATE TABLE annotations (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('note', 'arrow', 'highlight')),
     text TEXT NOT NULL,
     geometry TEXT NOT NULL,
     color TEXT NOT NULL,
     ord INTEGER NOT NULL,
     created_by TEXT NOT NULL,
     created_at TEXT NOT NULL
   );`,
  // 9: projects (issue #15). A layer pointed at another file ("Locate…") gets a data revision,
  // so the map fetches its data again under a new URL, as after an edit.
  `ALTER TABLE layers ADD COLUMN data_revision INTEGER;`,
];

export type OpenOptions = Pick<SqliteOpenOptions, 'nativeBinding'>;

/** Opens (creating if needed) a project file in WAL mode and brings its schema up to date. */
export function openProjectDb(file: string, options: OpenOptions = {}): Db {
  return openSqlite(file, MIGRATIONS, { ...options, foreignKeys: true });
}

/** How many migrations this version knows: a file with a higher `user_version` is from a newer Mapwright. */
export const PROJECT_SCHEMA_VERSION = MIGRATIONS.length;

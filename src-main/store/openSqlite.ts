import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SqliteOpenOptions {
  /** Path of a better-sqlite3 binary built for another ABI (Electron). */
  nativeBinding?: string;
  /** Turn on foreign-key enforcement (off by default in SQLite). */
  foreignKeys?: boolean;
}

/**
 * Opens (creating it and its folder if needed) one of the app's SQLite files in WAL mode and
 * runs the migrations it has not run yet, each in a transaction; `user_version` records how
 * many ran. `migrations` is append only: a file must open in every later version. What SQLite
 * says of a file it cannot open (locked, not a database) is thrown as it is.
 */
export function openSqlite(file: string, migrations: readonly string[], options: SqliteOpenOptions = {}): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  // FULL: an acknowledged write survives a killed process and a power cut, at a small cost.
  db.pragma('synchronous = FULL');
  if (options.foreignKeys) db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}

import type { Dataset } from 'gdal-async';
import { quoteIdentifier as qi, quoteLiteral as ql } from '../../../src-shared/sql/quote.js';
import { BadInputError } from '../errors.js';
import { exec, rows } from './sqlExec.js';

/**
 * The undo journal of a working copy (issue #14), kept inside the copy itself so an edit and
 * its inverse commit in one SQLite transaction: a killed process leaves both or neither.
 *
 * Row changes are journalled by temporary triggers (the classic SQLite undo log): an insert
 * logs the DELETE that removes the row, an update or a delete logs the UPDATE or INSERT that
 * puts every column back, values written with quote() (exact for REAL since SQLite 3.x prints
 * 17 digits when 15 would not round-trip). The GeoPackage's own R-tree triggers fire for the
 * inverse statements too, so undo keeps the spatial index right. Schema changes log their
 * inverse ALTER TABLE and, for a dropped column, its values. Undo runs a transaction's
 * statements newest first and forgets them.
 */

export const JOURNAL = 'mapwright_edit_journal';
const FID = 'fid';

export function ensureJournal(ds: Dataset): void {
  exec(
    ds,
    `CREATE TABLE IF NOT EXISTS ${JOURNAL} (seq INTEGER PRIMARY KEY AUTOINCREMENT, tx INTEGER NOT NULL, tbl TEXT NOT NULL, stmt TEXT NOT NULL)`,
  );
}

export interface Column {
  name: string;
  /** The declared type (INTEGER, REAL, TEXT, DATE, MULTIPOLYGON…). */
  type: string;
}

/** The table's columns in order, FID and geometry included. */
export function tableColumns(ds: Dataset, table: string): Column[] {
  return rows(ds, `PRAGMA table_info(${qi(table)})`).map((r) => ({ name: String(r.name), type: String(r.type ?? '') }));
}

const TRIGGERS = ['mw_journal_insert', 'mw_journal_update', 'mw_journal_delete'];

/** Journals every row change of `table` under `tx` until dropJournalTriggers (temporary: this connection only). */
export function installJournalTriggers(ds: Dataset, table: string, tx: number): void {
  dropJournalTriggers(ds);
  const cols = tableColumns(ds, table);
  const t = qi(table);
  const log = (expr: string) => `INSERT INTO ${JOURNAL} (tx, tbl, stmt) VALUES (${tx}, ${ql(table)}, ${expr})`;
  const fidOf = (row: 'NEW' | 'OLD') => `${row}.${qi(FID)}`;
  const insertStmt = ql(`DELETE FROM ${t} WHERE ${qi(FID)} = `) + ` || ${fidOf('NEW')}`;
  const values = cols.map((c) => `quote(OLD.${qi(c.name)})`).join(` || ', ' || `);
  const deleteStmt = ql(`INSERT INTO ${t} (${cols.map((c) => qi(c.name)).join(', ')}) VALUES (`) + ` || ${values} || ')'`;
  const assignments = cols
    .filter((c) => c.name !== FID)
    .map((c, i) => `${ql(`${i ? ', ' : ''}${qi(c.name)} = `)} || quote(OLD.${qi(c.name)})`)
    .join(' || ');
  const updateStmt = `${ql(`UPDATE ${t} SET `)} || ${assignments} || ${ql(` WHERE ${qi(FID)} = `)} || ${fidOf('OLD')}`;
  exec(ds, `CREATE TEMP TRIGGER mw_journal_insert AFTER INSERT ON main.${t} BEGIN ${log(insertStmt)}; END`);
  exec(ds, `CREATE TEMP TRIGGER mw_journal_update AFTER UPDATE ON main.${t} BEGIN ${log(updateStmt)}; END`);
  exec(ds, `CREATE TEMP TRIGGER mw_journal_delete BEFORE DELETE ON main.${t} BEGIN ${log(deleteStmt)}; END`);
}

export function dropJournalTriggers(ds: Dataset): void {
  for (const name of TRIGGERS) exec(ds, `DROP TRIGGER IF EXISTS temp.${name}`);
}

/** Logs one inverse statement (a schema change's) under `tx`. */
export function logInverse(ds: Dataset, table: string, tx: number, stmt: string): void {
  exec(ds, `INSERT INTO ${JOURNAL} (tx, tbl, stmt) VALUES (${tx}, ${ql(table)}, ${ql(stmt)})`);
}

/** Logs the UPDATEs that put `column`'s values back (before the column is dropped). */
export function logColumnValues(ds: Dataset, table: string, tx: number, column: string): void {
  const t = qi(table);
  const c = qi(column);
  exec(
    ds,
    `INSERT INTO ${JOURNAL} (tx, tbl, stmt) SELECT ${tx}, ${ql(table)}, ${ql(`UPDATE ${t} SET ${c} = `)} || quote(${c}) || ${ql(
      ` WHERE ${qi(FID)} = `,
    )} || ${qi(FID)} FROM ${t} WHERE ${c} IS NOT NULL`,
  );
}

/**
 * Reverts transactions `txs` of `table`, newest statement first, inside the caller's transaction.
 * Each statement must be one the journal writes for this table: a file whose journal was
 * tampered with cannot make undo run anything else.
 */
export function undoTransactions(ds: Dataset, table: string, txs: readonly number[]): number {
  const list = txs.map((t) => String(Math.trunc(t))).join(', ');
  const entries = rows(ds, `SELECT seq, stmt FROM ${JOURNAL} WHERE tbl = ${ql(table)} AND tx IN (${list}) ORDER BY seq DESC`);
  for (const e of entries) {
    const stmt = String(e.stmt);
    if (!isJournalStatement(stmt, table))
      throw new BadInputError(`The edit journal of ${table} holds an unexpected statement; undo stopped.`);
    exec(ds, stmt);
  }
  exec(ds, `DELETE FROM ${JOURNAL} WHERE tbl = ${ql(table)} AND tx IN (${list})`);
  return entries.length;
}

/** One statement aimed at `table` only, of the shapes the journal writes, with no second statement after it. */
export function isJournalStatement(stmt: string, table: string): boolean {
  const t = qi(table);
  const shapes = [`DELETE FROM ${t} WHERE `, `INSERT INTO ${t} (`, `UPDATE ${t} SET `, `ALTER TABLE ${t} `];
  if (!shapes.some((s) => stmt.startsWith(s))) return false;
  // Outside quoted literals and names there may be no ';' (a second statement).
  let quote: string | null = null;
  for (let i = 0; i < stmt.length; i++) {
    const ch = stmt[i]!;
    if (quote) {
      if (ch === quote) quote = stmt[i + 1] === quote ? (i++, quote) : null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ';') return false;
  }
  return quote === null;
}

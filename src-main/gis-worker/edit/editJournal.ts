import type { Dataset } from 'gdal-async';
import { quoteIdentifier as qi, quoteLiteral as ql } from '../../../src-shared/sql/quote.js';
import { BadInputError } from '../errors.js';
import { exec, rows } from './sqlExec.js';

/**
 * The undo journal of a working copy (issue #14), kept inside the copy itself so an edit and
 * its inverse commit in one SQLite transaction: a killed process leaves both or neither.
 *
 * Row changes are journalled by temporary triggers: an inserted row logs its FID (`delete`);
 * an updated or deleted row logs its whole old row as a literal tuple (`restore`, every value
 * through quote(), exact for REAL since SQLite prints 17 digits when 15 would not round-trip).
 * Schema changes log their inverse ALTER TABLE (`sql`) and, for a dropped column, its values
 * (`set`). Undo replays a transaction newest first, in batches — one DELETE … IN, one multi-row
 * upsert, one UPDATE … FROM (VALUES …) per run of like entries — so reverting a change to a
 * million rows is a few hundred statements, not a million. The GeoPackage's own R-tree
 * triggers fire for them, so the spatial index stays right.
 */

export const JOURNAL = 'mapwright_edit_journal';
const FID = 'fid';
const GEOM = 'geom';
/** Entries per replayed statement, and the text it may reach (geometries can be large). */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 8 << 20;

type Kind = 'delete' | 'restore' | 'set' | 'sql';

export function ensureJournal(ds: Dataset): void {
  exec(
    ds,
    `CREATE TABLE IF NOT EXISTS ${JOURNAL} (seq INTEGER PRIMARY KEY AUTOINCREMENT, tx INTEGER NOT NULL, tbl TEXT NOT NULL, ` +
      `kind TEXT NOT NULL, cols TEXT, entry TEXT NOT NULL)`,
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
  const cols = tableColumns(ds, table).map((c) => c.name);
  const t = qi(table);
  const log = (kind: Kind, colsJson: string | null, entry: string) =>
    `INSERT INTO ${JOURNAL} (tx, tbl, kind, cols, entry) VALUES (${tx}, ${ql(table)}, '${kind}', ${colsJson === null ? 'NULL' : ql(colsJson)}, ${entry})`;
  const oldRow = `'(' || ${cols.map((c) => `quote(OLD.${qi(c)})`).join(` || ', ' || `)} || ')'`;
  const all = JSON.stringify(cols);
  exec(ds, `CREATE TEMP TRIGGER mw_journal_insert AFTER INSERT ON main.${t} BEGIN ${log('delete', null, `NEW.${qi(FID)}`)}; END`);
  exec(ds, `CREATE TEMP TRIGGER mw_journal_update AFTER UPDATE ON main.${t} BEGIN ${log('restore', all, oldRow)}; END`);
  exec(ds, `CREATE TEMP TRIGGER mw_journal_delete BEFORE DELETE ON main.${t} BEGIN ${log('restore', all, oldRow)}; END`);
}

export function dropJournalTriggers(ds: Dataset): void {
  for (const name of TRIGGERS) exec(ds, `DROP TRIGGER IF EXISTS temp.${name}`);
}

/** Logs one inverse schema statement under `tx`. */
export function logInverse(ds: Dataset, table: string, tx: number, stmt: string): void {
  exec(ds, `INSERT INTO ${JOURNAL} (tx, tbl, kind, cols, entry) VALUES (${tx}, ${ql(table)}, 'sql', NULL, ${ql(stmt)})`);
}

/** Logs `column`'s values (before the column is dropped), to be put back by FID. */
export function logColumnValues(ds: Dataset, table: string, tx: number, column: string): void {
  const c = qi(column);
  exec(
    ds,
    `INSERT INTO ${JOURNAL} (tx, tbl, kind, cols, entry) SELECT ${tx}, ${ql(table)}, 'set', ${ql(JSON.stringify([column]))}, ` +
      `'(' || ${qi(FID)} || ', ' || quote(${c}) || ')' FROM ${qi(table)} WHERE ${c} IS NOT NULL`,
  );
}

interface Entry {
  kind: Kind;
  cols: string | null;
  entry: string;
}

/**
 * Reverts transactions `txs` of `table`, newest entry first, inside the caller's transaction.
 * Every entry is checked to be of the shape the journal writes — an FID, a tuple of literals,
 * an ALTER TABLE of this table — so a journal tampered with cannot make undo run anything else.
 */
export function undoTransactions(ds: Dataset, table: string, txs: readonly number[]): number {
  const list = txs.map((t) => String(Math.trunc(t))).join(', ');
  const entries = rows(ds, `SELECT kind, cols, entry FROM ${JOURNAL} WHERE tbl = ${ql(table)} AND tx IN (${list}) ORDER BY seq DESC`).map(
    (r): Entry => ({ kind: r.kind as Kind, cols: r.cols === null || r.cols === undefined ? null : String(r.cols), entry: String(r.entry) }),
  );
  let statements = 0;
  for (let i = 0; i < entries.length;) {
    const first = entries[i]!;
    let j = i + 1;
    let chars = first.entry.length;
    if (first.kind !== 'sql') {
      while (j < entries.length && j - i < BATCH_ROWS && chars < BATCH_CHARS) {
        const e = entries[j]!;
        if (e.kind !== first.kind || e.cols !== first.cols) break;
        chars += e.entry.length;
        j++;
      }
    }
    for (const stmt of [replay(table, entries.slice(i, j))].flat()) {
      exec(ds, stmt);
      statements++;
    }
    i = j;
  }
  exec(ds, `DELETE FROM ${JOURNAL} WHERE tbl = ${ql(table)} AND tx IN (${list})`);
  return statements;
}

/** The statements that revert a run of like entries. */
function replay(table: string, run: Entry[]): string | string[] {
  const t = qi(table);
  const first = run[0]!;
  const refuse = (): never => {
    throw new BadInputError(`The edit journal of ${table} holds an unexpected entry; undo stopped.`);
  };
  switch (first.kind) {
    case 'sql':
      if (!isInverseStatement(first.entry, table)) refuse();
      return first.entry;
    case 'delete': {
      if (!run.every((e) => /^-?\d+$/.test(e.entry))) refuse();
      return `DELETE FROM ${t} WHERE ${qi(FID)} IN (${run.map((e) => e.entry).join(', ')})`;
    }
    case 'restore': {
      // Old rows go back by FID: values of rows still there are set back (the geometry only
      // where it differs, so the R-tree is touched only for moved shapes), rows gone are
      // inserted again. A row seen twice in the run keeps its oldest image, the last one here.
      const cols = columnsOf(first.cols) ?? refuse();
      const at = cols.indexOf(FID);
      const byFid = new Map<string, string>();
      for (const e of run) {
        const values = literals(e.entry);
        if (!values || values.length !== cols.length || at < 0 || !/^-?\d+$/.test(values[at]!)) refuse();
        byFid.set(values![at]!, e.entry);
      }
      const v = (c: string) => `v.column${cols.indexOf(c) + 1}`;
      const from = `FROM (VALUES ${[...byFid.values()].join(', ')}) AS v`;
      const match = `${t}.${qi(FID)} = ${v(FID)}`;
      const plain = cols.filter((c) => c !== FID && c !== GEOM);
      return [
        ...(plain.length ? [`UPDATE ${t} SET ${plain.map((c) => `${qi(c)} = ${v(c)}`).join(', ')} ${from} WHERE ${match}`] : []),
        ...(cols.includes(GEOM)
          ? [`UPDATE ${t} SET ${qi(GEOM)} = ${v(GEOM)} ${from} WHERE ${match} AND ${t}.${qi(GEOM)} IS NOT ${v(GEOM)}`]
          : []),
        `INSERT INTO ${t} (${cols.map(qi).join(', ')}) SELECT ${cols.map(v).join(', ')} ${from} ` +
          `WHERE NOT EXISTS (SELECT 1 FROM ${t} WHERE ${match})`,
      ];
    }
    case 'set': {
      const cols = columnsOf(first.cols) ?? refuse();
      if (cols.length !== 1 || !run.every((e) => literals(e.entry)?.length === 2)) refuse();
      return `UPDATE ${t} SET ${qi(cols[0]!)} = v.column2 FROM (VALUES ${run.map((e) => e.entry).join(', ')}) AS v WHERE ${t}.${qi(FID)} = v.column1`;
    }
    default:
      return refuse();
  }
}

function columnsOf(json: string | null): string[] | null {
  try {
    const cols = JSON.parse(json ?? '') as unknown;
    return Array.isArray(cols) && cols.length > 0 && cols.every((c) => typeof c === 'string') ? (cols as string[]) : null;
  } catch {
    return null;
  }
}

/** One SQL literal as quote() writes it: NULL, a number, 'text', X'blob'. */
const LITERAL = /NULL|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|'(?:[^']|'')*'|X'[0-9A-Fa-f]*'/y;

/** The literals of `(v1, v2, …)`, or null when the text is anything else. */
export function literals(text: string): string[] | null {
  if (!text.startsWith('(') || !text.endsWith(')')) return null;
  const out: string[] = [];
  let i = 1;
  for (;;) {
    LITERAL.lastIndex = i;
    const m = LITERAL.exec(text);
    if (!m) return null;
    out.push(m[0]);
    i = LITERAL.lastIndex;
    if (text.startsWith(', ', i)) i += 2;
    else return i === text.length - 1 ? out : null;
  }
}

/** An ALTER TABLE of `table` only, with no second statement after it. */
export function isInverseStatement(stmt: string, table: string): boolean {
  if (!stmt.startsWith(`ALTER TABLE ${qi(table)} `)) return false;
  // Outside quoted names and literals there may be no ';'.
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

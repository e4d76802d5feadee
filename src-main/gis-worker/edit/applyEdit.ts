import type { Dataset, Layer } from 'gdal-async';
import type { EditOp, Scalar, Target } from '../../../src-shared/edit/editOps.js';
import { quoteIdentifier as qi } from '../../../src-shared/sql/quote.js';
import { BadInputError } from '../errors.js';
import { gdal } from '../gdal.js';
import {
  dropJournalTriggers,
  ensureJournal,
  installJournalTriggers,
  logColumnValues,
  logInverse,
  tableColumns,
  undoTransactions,
} from './editJournal.js';
import { assertNewField, checkedCalculation, converted, DECLARED, resolveField, sqlValue, targetCondition } from './editSql.js';
import { geometryFor } from './geometryInput.js';
import { exec, rows } from './sqlExec.js';

export interface Applied {
  changed: number;
  fids: number[];
  notes: string[];
}

/**
 * Applies one op to a working copy's table in one transaction with its journal entries (under
 * `tx`, the undo snapshot's id): either both are written or neither.
 */
export function applyEdit(ds: Dataset, table: string, op: EditOp, tx: number): Applied {
  const layer = ds.layers.get(table);
  if (!layer) throw new BadInputError(`The working copy has no table '${table}'.`);
  ensureJournal(ds);
  exec(ds, 'BEGIN');
  try {
    const rowOp =
      op.kind === 'add_features' || op.kind === 'update_features' || op.kind === 'delete_features' || op.kind === 'calculate_field';
    if (rowOp) installJournalTriggers(ds, table, tx);
    const result = run(ds, layer, table, op, tx);
    if (rowOp) dropJournalTriggers(ds);
    exec(ds, 'COMMIT');
    if (op.kind === 'add_features' || op.kind === 'update_features' || op.kind === 'delete_features')
      exec(ds, `RECOMPUTE EXTENT ON ${table}`); // GDAL's own command: the bare layer name
    return result;
  } catch (err) {
    try {
      dropJournalTriggers(ds);
      exec(ds, 'ROLLBACK');
    } catch {
      // The transaction may already be gone (SQLite rolls back on some errors by itself).
    }
    throw err;
  }
}

/** Reverts journalled transactions in one transaction. */
export function undoEdits(ds: Dataset, table: string, txs: readonly number[]): number {
  ensureJournal(ds);
  exec(ds, 'BEGIN');
  try {
    const n = undoTransactions(
      ds,
      table,
      [...txs].sort((a, b) => b - a),
    );
    exec(ds, 'COMMIT');
    exec(ds, `RECOMPUTE EXTENT ON ${table}`); // GDAL's own command: the bare layer name
    return n;
  } catch (err) {
    try {
      exec(ds, 'ROLLBACK');
    } catch {
      // already rolled back
    }
    throw err;
  }
}

function fieldNames(layer: Layer): string[] {
  return layer.fields.getNames();
}

function count(ds: Dataset, table: string, condition: string): number {
  return Number(rows(ds, `SELECT COUNT(*) AS n FROM ${qi(table)} WHERE ${condition}`)[0]?.n ?? 0);
}

function run(ds: Dataset, layer: Layer, table: string, op: EditOp, tx: number): Applied {
  const t = qi(table);
  const fields = fieldNames(layer);
  switch (op.kind) {
    case 'add_features': {
      const fids: number[] = [];
      for (const input of op.features) {
        const feature = new gdal.Feature(layer);
        for (const [name, value] of Object.entries(input.properties)) setField(feature, resolveField(fields, name), value);
        if (input.geometry) feature.setGeometry(geometryFor(layer, input.geometry, op.crs));
        layer.features.add(feature);
        fids.push(feature.fid);
      }
      return { changed: fids.length, fids, notes: [] };
    }
    case 'update_features': {
      const where = targetCondition(op.target, fields);
      const fids = rows(ds, `SELECT fid FROM ${t} WHERE ${where} ORDER BY fid`).map((r) => Number(r.__fid ?? r.fid));
      const assignments = Object.entries(op.set).map(([name, value]) => `${qi(resolveField(fields, name))} = ${sqlValue(value)}`);
      if (!assignments.length && !op.geometry) throw new BadInputError('Nothing to change: give `set` (field values) and/or `geometry`.');
      if (assignments.length && fids.length) exec(ds, `UPDATE ${t} SET ${assignments.join(', ')} WHERE ${where}`);
      if (op.geometry) {
        if (!('fids' in op.target)) throw new BadInputError('A new geometry is given for listed features only: pass `fids`, not `where`.');
        for (const fid of fids) {
          const feature = layer.features.get(fid);
          feature.setGeometry(geometryFor(layer, op.geometry, op.crs));
          layer.features.set(feature);
        }
      }
      return { changed: fids.length, fids, notes: missing(op.target, fids) };
    }
    case 'delete_features': {
      const where = targetCondition(op.target, fields);
      const fids = rows(ds, `SELECT fid FROM ${t} WHERE ${where} ORDER BY fid`).map((r) => Number(r.__fid ?? r.fid));
      if (fids.length) exec(ds, `DELETE FROM ${t} WHERE ${where}`);
      return { changed: fids.length, fids, notes: missing(op.target, fids) };
    }
    case 'add_field': {
      assertNewField(fields, op.name);
      const dflt = op.default === null ? '' : ` DEFAULT ${sqlValue(op.default)}`;
      exec(ds, `ALTER TABLE ${t} ADD COLUMN ${qi(op.name)} ${DECLARED[op.type]}${dflt}`);
      logInverse(ds, table, tx, `ALTER TABLE ${t} DROP COLUMN ${qi(op.name)}`);
      return { changed: layer.features.count(), fids: [], notes: [] };
    }
    case 'rename_field': {
      const from = resolveField(fields, op.from);
      if (from.toLowerCase() !== op.to.toLowerCase()) assertNewField(fields, op.to);
      exec(ds, `ALTER TABLE ${t} RENAME COLUMN ${qi(from)} TO ${qi(op.to)}`);
      logInverse(ds, table, tx, `ALTER TABLE ${t} RENAME COLUMN ${qi(op.to)} TO ${qi(from)}`);
      return { changed: 0, fids: [], notes: [] };
    }
    case 'delete_field': {
      const name = resolveField(fields, op.name);
      dropColumn(ds, table, name, tx);
      return { changed: count(ds, table, '1'), fids: [], notes: [] };
    }
    case 'calculate_field': {
      const name = resolveField(fields, op.name);
      const expr = checkedCalculation(op.expression, fields);
      const where = op.where ? targetCondition({ where: op.where }, fields) : '1';
      const n = count(ds, table, where);
      exec(ds, `UPDATE ${t} SET ${qi(name)} = (${expr}) WHERE ${where}`);
      const nulls = count(ds, table, `(${where}) AND ${qi(name)} IS NULL`);
      return { changed: n, fids: [], notes: nulls ? [`${nulls} of ${n} feature(s) got an empty value (the expression gave NULL).`] : [] };
    }
    case 'change_type': {
      const name = resolveField(fields, op.name);
      const lost = count(ds, table, `${qi(name)} IS NOT NULL AND (${converted(name, op.type)}) IS NULL`);
      // SQLite cannot change a column's declared type: a new column takes the converted values,
      // the old one goes (its values journalled) and the new one takes its name — last in order.
      const tmp = `${name}__mw${tx}`;
      exec(ds, `ALTER TABLE ${t} ADD COLUMN ${qi(tmp)} ${DECLARED[op.type]}`);
      exec(ds, `UPDATE ${t} SET ${qi(tmp)} = (${converted(name, op.type)})`);
      logInverse(ds, table, tx, `ALTER TABLE ${t} DROP COLUMN ${qi(tmp)}`);
      dropColumn(ds, table, name, tx);
      exec(ds, `ALTER TABLE ${t} RENAME COLUMN ${qi(tmp)} TO ${qi(name)}`);
      logInverse(ds, table, tx, `ALTER TABLE ${t} RENAME COLUMN ${qi(name)} TO ${qi(tmp)}`);
      return {
        changed: layer.features.count(),
        fids: [],
        notes: lost ? [`${lost} value(s) of ${name} did not convert to ${op.type} and are now empty (undo brings them back).`] : [],
      };
    }
  }
}

/** Drops a column, journalling its values and then the ADD COLUMN that undo runs first. */
function dropColumn(ds: Dataset, table: string, name: string, tx: number): void {
  const declared = tableColumns(ds, table).find((c) => c.name === name)?.type || 'TEXT';
  logColumnValues(ds, table, tx, name);
  logInverse(ds, table, tx, `ALTER TABLE ${qi(table)} ADD COLUMN ${qi(name)} ${declared}`);
  exec(ds, `ALTER TABLE ${qi(table)} DROP COLUMN ${qi(name)}`);
}

function setField(feature: InstanceType<typeof gdal.Feature>, name: string, value: Scalar): void {
  if (value === null) feature.fields.set(name, null);
  else feature.fields.set(name, typeof value === 'boolean' ? (value ? 1 : 0) : value);
}

function missing(target: Target, found: number[]): string[] {
  if (!('fids' in target)) return found.length ? [] : ['No feature matched the filter; nothing changed.'];
  const have = new Set(found);
  const absent = [...new Set(target.fids)].filter((f) => !have.has(f));
  return absent.length ? [`No feature with id ${absent.slice(0, 10).join(', ')}${absent.length > 10 ? '…' : ''}; skipped.`] : [];
}

import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { z } from 'zod';
import { formatSource } from '../../../src-shared/domain/source.js';
import { joinByField } from '../../../src-shared/processing/attributeAlgorithms.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { NameAllocator, NUMERIC_TYPES, q, resolveFields, selectList } from './fieldNames.js';
import { readTable, type TableData } from './readTable.js';
import { appendInChunks, createOutput, outputFeatureCount } from './sqlOutput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import { assumedNote, type FieldSpec, type StagedLayer, withVectorInputs, withWorkspace } from './workspace.js';

/**
 * Join attributes by field value. Keys are compared as text after trimming (and optionally
 * ignoring case), so 7 and "7" and " 7 " meet; the first table row of a duplicated key wins.
 * The table is read into memory and matched in JS — that is where the report of unmatched
 * and duplicated keys comes from — and the matches are written as a workspace table `m`
 * (input fid → table values) that one LEFT JOIN brings into the output.
 */

const REPORT_LIMIT = 100;
const SEPARATOR = '\u001f';

interface KeyOptions {
  caseInsensitive: boolean;
}

/** The comparison text of one key value, or null for an empty key. */
export function keyText(value: unknown, opts: KeyOptions): string | null {
  if (value === null || value === undefined) return null;
  const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).normalize('NFC').trim();
  if (!text) return null;
  return opts.caseInsensitive ? text.toLowerCase() : text;
}

function compositeKey(values: unknown[], opts: KeyOptions): string | null {
  const parts = values.map((v) => keyText(v, opts));
  return parts.some((p) => p === null) ? null : parts.join(SEPARATOR);
}

/** How a key is shown to the person: parts joined by ' | ', as written in the data. */
function shown(values: unknown[]): string {
  return values.map((v) => String(v ?? '').trim()).join(' | ');
}

const asList = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);

export const runJoinByField: AlgorithmRun = async (params, output, ctx) => {
  const p = joinByField.params.extend({ input: z.string(), table: z.string() }).parse(params);
  const inputKeyNames = asList(p.input_keys);
  const tableKeyNames = asList(p.table_keys);
  if (inputKeyNames.length !== tableKeyNames.length) {
    throw new BadInputError(
      `input_keys has ${inputKeyNames.length} field(s) but table_keys has ${tableKeyNames.length}; give one table key per input key`,
    );
  }
  const opts = { caseInsensitive: p.case_insensitive };

  ctx.progress(0.02, 'Reading the table');
  const table = await readTable(p.table, ctx);
  const tableKeys = resolveFields(tableKeyNames, table.fields, 'table_keys', table.path);
  const keyIdx = tableKeys.map((k) => table.fields.indexOf(k));
  const carried = p.fields
    ? resolveFields(p.fields, table.fields, 'fields', table.path)
    : table.fields.filter((f) => !tableKeys.includes(f));
  const carriedIdx = carried.map((f) => table.fields.indexOf(f));

  // Table side: the first row of each key, and how often each key occurs.
  const firstRow = new Map<string, number>();
  const occurrences = new Map<string, number>();
  const keyShown = new Map<string, string>();
  let emptyTableKeys = 0;
  table.rows.forEach((row, r) => {
    const raw = keyIdx.map((i) => row[i]);
    const key = compositeKey(raw, opts);
    if (key === null) {
      emptyTableKeys++;
      return;
    }
    if (!firstRow.has(key)) {
      firstRow.set(key, r);
      keyShown.set(key, shown(raw));
    }
    occurrences.set(key, (occurrences.get(key) ?? 0) + 1);
  });

  return withVectorInputs({ input: p.input }, (inputs) =>
    withWorkspace(async (ws) => {
      const input = inputs.input!;
      ctx.progress(0.1, `Reading ${path.basename(input.path)}`);
      const a = await ws.stage(input, 'a', { onProgress: (f) => ctx.progress(0.1 + 0.1 * f, `Reading ${path.basename(input.path)}`) });
      throwIfCancelled(ctx.signal);
      const inputKeys = resolveFields(inputKeyNames, a.fields, 'input_keys', input.path);

      // Input side: which table row each feature gets.
      const matches = await matchFeatures(ws.rows.bind(ws), a, inputKeys, firstRow, opts, ctx);
      const usedKeys = matches.usedKeys;

      const names = new NameAllocator(a.fields.map((f) => f.name));
      const outNames = carried.map((f) => names.take(`${p.prefix}${f.name}`));
      const mFields: FieldSpec[] = [
        { name: 'a_fid', type: 'integer64', width: 0, precision: 0 },
        ...carried.map((f, i) => ({ ...f, name: `f${i}` })),
      ];
      await ws.writeTable(
        'm',
        mFields,
        matches.pairs.map(([fid, r]) => [fid, ...carriedIdx.map((i) => table.rows[r]![i])]),
      );
      throwIfCancelled(ctx.signal);

      const target = await createOutput(output, {
        srs: a.srs,
        geometryType: a.geometryType === 0 && a.dimension === null ? 100 : a.geometryType,
        fields: [...a.fields, ...carried.map((f, i) => ({ ...f, name: outNames[i]! }))],
      });
      const cols = [
        ...selectList('a', a.fields),
        ...(a.dimension === null ? [] : ['a.geom AS geom']),
        ...carried.map((_, i) => `m.${q(`f${i}`)} AS ${q(outNames[i]!)}`),
      ];
      const join = p.keep_unmatched ? 'LEFT JOIN' : 'JOIN';
      await appendInChunks(
        ws,
        target,
        a,
        (lo, hi) => `SELECT ${cols.join(', ')} FROM a ${join} m ON m.a_fid = a.fid WHERE a.fid BETWEEN ${lo} AND ${hi}`,
        ctx,
        { from: 0.5, to: 0.98, verb: 'Joining' },
      );
      const featureCount = await outputFeatureCount(target);

      const tableUnmatched = [...firstRow.keys()].filter((k) => !usedKeys.has(k)).map((k) => keyShown.get(k)!);
      const duplicated = [...occurrences].filter(([, n]) => n > 1).map(([k, n]) => ({ key: keyShown.get(k)!, rows: n }));
      const report = {
        input_features: a.count,
        matched_features: matches.pairs.length,
        unmatched_features: a.count - matches.pairs.length,
        input_keys_without_match: sortedHead(matches.unmatchedKeys),
        input_keys_without_match_count: matches.unmatchedKeys.size,
        input_features_with_empty_key: matches.emptyKeys,
        table_rows: table.rows.length,
        table_keys_without_match: sortedHead(new Set(tableUnmatched)),
        table_keys_without_match_count: tableUnmatched.length,
        table_rows_with_empty_key: emptyTableKeys,
        duplicated_table_keys: duplicated.slice(0, REPORT_LIMIT),
        duplicated_table_keys_count: duplicated.length,
        joined_fields: outNames,
        key_comparison: `as text, trimmed${p.case_insensitive ? ', ignoring case' : ', case-sensitive'}; the first row of a duplicated key is used`,
      };
      const notes = [...assumedNote(a), ...joinNotes(report, table, p.keep_unmatched)];
      const mismatch = keyTypeMismatch(inputKeys, tableKeys);
      if (mismatch && (report.unmatched_features || report.table_keys_without_match_count)) notes.push(mismatch);
      ctx.progress(1, `Joined ${matches.pairs.length.toLocaleString('en-US')} of ${a.count.toLocaleString('en-US')} features`);
      return {
        output: formatSource({ path: target.path, sublayer: target.layerName }),
        featureCount,
        notes,
        report,
      };
    }),
  );
};

interface Matches {
  /** [input fid, table row index] */
  pairs: [number, number][];
  usedKeys: Set<string>;
  unmatchedKeys: Set<string>;
  emptyKeys: number;
}

async function matchFeatures(
  rows: (sql: string) => Promise<Record<string, unknown>[]>,
  a: StagedLayer,
  keys: FieldSpec[],
  firstRow: Map<string, number>,
  opts: KeyOptions,
  ctx: AlgorithmContext,
): Promise<Matches> {
  const result: Matches = { pairs: [], usedKeys: new Set(), unmatchedKeys: new Set(), emptyKeys: 0 };
  const keyCols = keys.map((k, i) => `${q(k.name)} AS k${i}`).join(', ');
  // `fid + 0`: a bare fid column becomes the FID of GDAL's result layer, not a field.
  const all = await rows(`SELECT fid + 0 AS id, ${keyCols} FROM a ORDER BY fid`);
  for (let n = 0; n < all.length; n++) {
    const row = all[n]!;
    const raw = keys.map((_, i) => row[`k${i}`]);
    const key = compositeKey(raw, opts);
    if (key === null) result.emptyKeys++;
    else {
      const r = firstRow.get(key);
      if (r === undefined) result.unmatchedKeys.add(shown(raw));
      else {
        result.pairs.push([Number(row.id), r]);
        result.usedKeys.add(key);
      }
    }
    if (n % 5000 === 4999) {
      ctx.progress(0.2 + (0.2 * n) / all.length, 'Matching keys');
      await yieldToEvents();
      throwIfCancelled(ctx.signal);
    }
  }
  return result;
}

/** Numbers on one side and text on the other: codes such as '01001' may have lost their zero. */
function keyTypeMismatch(inputKeys: FieldSpec[], tableKeys: FieldSpec[]): string | null {
  const numeric = (f: FieldSpec): boolean => NUMERIC_TYPES.has(f.type);
  const pairs = inputKeys.map((k, i) => [k, tableKeys[i]!] as const).filter(([x, y]) => numeric(x) !== numeric(y));
  if (!pairs.length) return null;
  const [x, y] = pairs[0]!;
  return (
    `Key ${x.name} is ${x.type} in the layer but ${y.name} is ${y.type} in the table: codes with leading zeros ('01001') ` +
    'may have been read as numbers on one side; quote them in the CSV, or build a text key with field_calculator'
  );
}

function sortedHead(values: Set<string>): string[] {
  return [...values].sort((x, y) => x.localeCompare(y)).slice(0, REPORT_LIMIT);
}

function joinNotes(
  r: {
    matched_features: number;
    input_features: number;
    input_keys_without_match: string[];
    input_keys_without_match_count: number;
    input_features_with_empty_key: number;
    table_keys_without_match: string[];
    table_keys_without_match_count: number;
    duplicated_table_keys: { key: string; rows: number }[];
    duplicated_table_keys_count: number;
  },
  table: TableData,
  keepUnmatched: boolean,
): string[] {
  const list = (items: string[], total: number): string =>
    `${items
      .slice(0, 20)
      .map((k) => `'${k}'`)
      .join(', ')}${total > 20 ? ` and ${total - 20} more` : ''}`;
  const notes = [`Joined ${r.matched_features} of ${r.input_features} features to rows of ${path.basename(table.path)}`];
  if (r.input_keys_without_match_count) {
    notes.push(
      `${r.input_features - r.matched_features - r.input_features_with_empty_key} feature(s) found no row (${keepUnmatched ? 'kept with empty joined fields' : 'dropped'}); their keys: ${list(r.input_keys_without_match, r.input_keys_without_match_count)}`,
    );
  }
  if (r.input_features_with_empty_key) notes.push(`${r.input_features_with_empty_key} feature(s) have an empty key`);
  if (r.table_keys_without_match_count) {
    notes.push(
      `${r.table_keys_without_match_count} table key(s) match no feature: ${list(r.table_keys_without_match, r.table_keys_without_match_count)}`,
    );
  }
  if (r.duplicated_table_keys_count) {
    const dups = r.duplicated_table_keys
      .slice(0, 20)
      .map((d) => `'${d.key}' (${d.rows} rows)`)
      .join(', ');
    const more = r.duplicated_table_keys_count > 20 ? ` and ${r.duplicated_table_keys_count - 20} more` : '';
    notes.push(`${r.duplicated_table_keys_count} key(s) occur more than once in the table, the first row was used: ${dups}${more}`);
  }
  return notes;
}

import { z } from 'zod';
import { fieldCalculator } from '../../../src-shared/processing/attributeAlgorithms.js';
import { q, selectList } from './fieldNames.js';
import { checkedExpression } from './selection.js';
import { runSingle } from './singleRun.js';
import { appendInChunks, createOutput } from './sqlOutput.js';
import type { AlgorithmRun } from './types.js';

const CAST = { real: 'REAL', integer: 'INTEGER', text: 'TEXT' } as const;
const FIELD_TYPE = { real: 'real', integer: 'integer64', text: 'string' } as const;
const MEASURES = /\b(st_area|st_length|st_perimeter|st_distance|st_buffer)\b/i;

/**
 * A new field from an SQLite expression, evaluated by GDAL in the workspace. The expression
 * was checked token by token (checkExpression): fields quoted, functions from an allow-list,
 * no statements — so it can be spliced into the SELECT.
 */
export const runFieldCalculator: AlgorithmRun = async (params, output, ctx) => {
  const p = fieldCalculator.params.extend({ input: z.string() }).parse(params);
  return runSingle(p.input, ctx, {}, async ({ ws, a }) => {
    const expr = checkedExpression(p.expression, a.fields, 'expression');
    const kept = a.fields.filter((f) => f.name.toLowerCase() !== p.field_name.toLowerCase());
    const target = await createOutput(output, {
      srs: a.srs,
      geometryType: a.geometryType,
      fields: [...kept, { name: p.field_name, type: FIELD_TYPE[p.field_type], width: 0, precision: 0 }],
    });
    const cols = [
      ...selectList('a', kept),
      ...(a.dimension === null ? [] : ['a.geom AS geom']),
      `CAST((${expr}) AS ${CAST[p.field_type]}) AS ${q(p.field_name)}`,
    ];
    const sql = (lo: number, hi: number): string => `SELECT ${cols.join(', ')} FROM a WHERE a.fid BETWEEN ${lo} AND ${hi}`;
    await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: `Calculating ${p.field_name}` });
    const notes: string[] = [];
    if (kept.length < a.fields.length) notes.push(`The existing field ${p.field_name} was replaced`);
    if (a.srs?.isGeographic() && MEASURES.test(p.expression) && !/st_transform/i.test(p.expression)) {
      notes.push(
        'The layer is in degrees: ST_Area/ST_Length here are in degree units, not metres; use area_length for true areas and lengths',
      );
    }
    const nulls = Number((await ws.row(`SELECT COUNT(*) AS n FROM a WHERE (${expr}) IS NULL`)).n ?? 0);
    if (nulls)
      notes.push(
        `${nulls} of ${a.count} feature(s) got an empty value (the expression gave NULL, e.g. from an empty field or a division by zero)`,
      );
    return { target, notes };
  });
};

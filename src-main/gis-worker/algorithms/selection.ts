import { z } from 'zod';
import { selectByAttribute } from '../../../src-shared/processing/attributeAlgorithms.js';
import { selectByLocation } from '../../../src-shared/processing/overlayAlgorithms.js';
import { checkExpression, ExpressionError } from '../../../src-shared/processing/sqlExpression.js';
import { BadInputError } from '../errors.js';
import { selectList } from './fieldNames.js';
import { runPair } from './pairRun.js';
import { runSingle } from './singleRun.js';
import { appendInChunks, createOutput } from './sqlOutput.js';
import type { AlgorithmRun } from './types.js';
import { bboxFilter } from './workspace.js';

/** Selections write the chosen features unchanged: same geometry type, same attributes. */

const PREDICATES = {
  intersects: 'ST_Intersects(a.geom, b.geom)',
  within: 'ST_Within(a.geom, b.geom)',
  contains: 'ST_Contains(a.geom, b.geom)',
} as const;

export const runSelectByLocation: AlgorithmRun = async (params, output, ctx) => {
  const p = selectByLocation.params.extend({ input: z.string(), overlay: z.string() }).parse(params);
  return runPair(
    { param: 'input', source: p.input },
    { param: 'overlay', source: p.overlay },
    ctx,
    { makeValid: 'second' },
    async ({ ws, a, b }) => {
      const target = await createOutput(output, { srs: a.srs, geometryType: a.geometryType, fields: a.fields });
      const relation = PREDICATES[p.predicate === 'disjoint' ? 'intersects' : p.predicate];
      const exists = `EXISTS (SELECT 1 FROM b WHERE ${bboxFilter(b, 'b', 'a.geom')} AND ${relation})`;
      const test = p.predicate === 'disjoint' ? `NOT ${exists}` : exists;
      const sql = (lo: number, hi: number): string =>
        `SELECT ${[...selectList('a', a.fields), 'a.geom AS geom'].join(', ')} FROM a WHERE a.fid BETWEEN ${lo} AND ${hi} AND a.geom IS NOT NULL AND ${test}`;
      await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: `Testing ${p.predicate}` });
      return { target };
    },
  );
};

export const runSelectByAttribute: AlgorithmRun = async (params, output, ctx) => {
  const p = selectByAttribute.params.extend({ input: z.string() }).parse(params);
  return runSingle(p.input, ctx, {}, async ({ ws, a }) => {
    const where = checkedExpression(p.where, a.fields, 'where');
    const target = await createOutput(output, { srs: a.srs, geometryType: a.geometryType, fields: a.fields });
    const cols = [...selectList('a', a.fields), ...(a.dimension === null ? [] : ['a.geom AS geom'])];
    const sql = (lo: number, hi: number): string => `SELECT ${cols.join(', ')} FROM a WHERE a.fid BETWEEN ${lo} AND ${hi} AND (${where})`;
    await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: 'Filtering' });
    return { target };
  });
};

/** The expression rewritten against the layer's real fields, or the person's error. */
export function checkedExpression(expr: string, fields: readonly { name: string }[], param: string): string {
  const names = fields.map((f) => f.name);
  try {
    return checkExpression(expr, names).sql;
  } catch (err) {
    if (err instanceof ExpressionError) throw new BadInputError(`'${param}': ${err.message}`);
    throw err;
  }
}

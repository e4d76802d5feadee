import path from 'node:path';
import { z } from 'zod';
import { countPointsInPolygons, spatialJoin } from '../../../src-shared/processing/overlayAlgorithms.js';
import { BadInputError } from '../errors.js';
import { NameAllocator, NUMERIC_TYPES, q, resolveFields, selectList } from './fieldNames.js';
import { dimensionName } from './overlay.js';
import { runPair } from './pairRun.js';
import { appendInChunks, createOutput } from './sqlOutput.js';
import type { AlgorithmRun } from './types.js';
import type { FieldSpec } from './workspace.js';
import { bboxFilter } from './workspace.js';

/**
 * Spatial join and point counts: attributes of the second layer brought to each feature of
 * the first through a correlated sub-query on the R-tree, the first layer's geometries unchanged.
 */

const RELATION = {
  intersects: (x: string, y: string) => `ST_Intersects(${x}, ${y})`,
  within: (x: string, y: string) => `ST_Within(${x}, ${y})`,
  contains: (x: string, y: string) => `ST_Contains(${x}, ${y})`,
} as const;

const STAT_SQL = { sum: 'SUM', mean: 'AVG', min: 'MIN', max: 'MAX' } as const;

export const runSpatialJoin: AlgorithmRun = async (params, output, ctx) => {
  const p = spatialJoin.params.extend({ input: z.string(), join: z.string() }).parse(params);
  const wanted = p.fields;
  return runPair(
    { param: 'input', source: p.input },
    { param: 'join', source: p.join },
    ctx,
    {
      makeValid: 'second',
      ...(wanted ? { secondFields: (names: string[]) => resolveFields(wanted, asSpecs(names), 'fields', p.join).map((f) => f.name) } : {}),
    },
    async ({ ws, a, b }) => {
      const names = new NameAllocator(a.fields.map((f) => f.name));
      const relate = RELATION[p.predicate];
      const aCols = [...selectList('a', a.fields), 'a.geom AS geom'];
      const notes: string[] = [];
      let outFields: FieldSpec[];
      let sql: (lo: number, hi: number) => string;
      if (p.mode === 'first') {
        const bNames = b.fields.map((f) => names.take(f.name));
        outFields = [...a.fields, ...b.fields.map((f, i) => ({ ...f, name: bNames[i]! }))];
        const firstMatch = `(SELECT b2.fid FROM b AS b2 WHERE ${bboxFilter(b, 'b2', 'a.geom')} AND ${relate('a.geom', 'b2.geom')} ORDER BY b2.fid LIMIT 1)`;
        sql = (lo, hi) =>
          `SELECT ${[...aCols, ...selectList('b', b.fields, bNames)].join(', ')} FROM a ${p.keep_unmatched ? 'LEFT ' : ''}JOIN b ON b.fid = ${firstMatch} ` +
          `WHERE a.fid BETWEEN ${lo} AND ${hi}`;
      } else {
        const numeric = b.fields.filter((f) => NUMERIC_TYPES.has(f.type));
        const skipped = b.fields.filter((f) => !NUMERIC_TYPES.has(f.type)).map((f) => f.name);
        if (wanted && skipped.length) notes.push(`Summary mode summarises numeric fields only; skipped: ${skipped.join(', ')}`);
        const countName = names.take('join_count');
        const stats = numeric.flatMap((f) => p.statistics.map((stat) => ({ field: f, stat, name: names.take(`${f.name}_${stat}`) })));
        outFields = [
          ...a.fields,
          { name: countName, type: 'integer', width: 0, precision: 0 },
          ...stats.map((s) => ({
            name: s.name,
            type: s.stat === 'mean' || s.field.type === 'real' ? 'real' : s.stat === 'sum' ? 'integer64' : s.field.type,
            width: 0,
            precision: 0,
          })),
        ];
        const aggregates = [
          `COUNT(b.fid) AS ${q(countName)}`,
          ...stats.map((s) => `${STAT_SQL[s.stat]}(b.${q(s.field.name)}) AS ${q(s.name)}`),
        ];
        sql = (lo, hi) =>
          `SELECT ${[...aCols, ...aggregates].join(', ')} FROM a LEFT JOIN b ON ${bboxFilter(b, 'b', 'a.geom')} AND ${relate('a.geom', 'b.geom')} ` +
          `WHERE a.fid BETWEEN ${lo} AND ${hi} GROUP BY a.fid${p.keep_unmatched ? '' : ' HAVING COUNT(b.fid) > 0'}`;
      }
      const target = await createOutput(output, { srs: a.srs, geometryType: a.geometryType, fields: outFields });
      await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: 'Joining' });
      return { target, notes };
    },
  );
};

export const runCountPointsInPolygons: AlgorithmRun = async (params, output, ctx) => {
  const p = countPointsInPolygons.params.extend({ input: z.string(), points: z.string() }).parse(params);
  return runPair(
    { param: 'input', source: p.input },
    { param: 'points', source: p.points },
    ctx,
    { makeValid: 'second' },
    async ({ ws, a, b }) => {
      if (a.dimension !== 2)
        throw new BadInputError(`'input' must be a polygon layer; ${path.basename(a.source)} holds ${dimensionName(a.dimension)}`);
      if (b.dimension !== 0)
        throw new BadInputError(`'points' must be a point layer; ${path.basename(b.source)} holds ${dimensionName(b.dimension)}`);
      const weight = p.weight_field ? resolveFields([p.weight_field], b.fields, 'weight_field', b.source)[0]! : null;
      if (weight && !NUMERIC_TYPES.has(weight.type))
        throw new BadInputError(`'weight_field': ${weight.name} is ${weight.type}, not a number`);
      // A field of the same name in the polygons is replaced by the count.
      const kept = a.fields.filter((f) => f.name.toLowerCase() !== p.field_name.toLowerCase());
      const measure = weight ? `COALESCE(SUM(b.${q(weight.name)}), 0)` : 'COUNT(*)';
      const target = await createOutput(output, {
        srs: a.srs,
        geometryType: a.geometryType,
        fields: [...kept, { name: p.field_name, type: weight ? 'real' : 'integer', width: 0, precision: 0 }],
      });
      const sql = (lo: number, hi: number): string =>
        `SELECT ${[...selectList('a', kept), 'a.geom AS geom'].join(', ')}, ` +
        `(SELECT ${measure} FROM b WHERE ${bboxFilter(b, 'b', 'a.geom')} AND ST_Intersects(a.geom, b.geom)) AS ${q(p.field_name)} ` +
        `FROM a WHERE a.fid BETWEEN ${lo} AND ${hi}`;
      await appendInChunks(ws, target, a, sql, ctx, { from: 0.3, to: 0.98, verb: 'Counting points' });
      const notes = kept.length < a.fields.length ? [`The existing field ${p.field_name} was replaced by the count`] : [];
      return { target, notes };
    },
  );
};

function asSpecs(names: string[]): FieldSpec[] {
  return names.map((name) => ({ name, type: '', width: 0, precision: 0 }));
}

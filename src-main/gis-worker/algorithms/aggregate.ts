import path from 'node:path';
import { z } from 'zod';
import { aggregate } from '../../../src-shared/processing/attributeAlgorithms.js';
import { dissolve } from '../../../src-shared/processing/geometryAlgorithms.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { NameAllocator, NUMERIC_TYPES, q, resolveFields } from './fieldNames.js';
import { runSingle } from './singleRun.js';
import { appendSelect, createOutput, multiType, type OutputTarget } from './sqlOutput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import type { FieldSpec, StagedLayer, Workspace } from './workspace.js';

/**
 * Dissolve and aggregate: one GROUP BY on the workspace. Geometries merge with
 * ST_UnaryUnion(ST_Collect(…)) — GEOS's cascaded union, far faster than folding ST_Union.
 * Groups are written in batches (by the smallest fid of each group), so progress moves and
 * Stop is honoured between batches; each batch re-reads the attributes, but only unions its
 * own groups.
 */

const STAT_SQL = { sum: 'SUM', mean: 'AVG', min: 'MIN', max: 'MAX', count: 'COUNT' } as const;

interface GroupQuery {
  groupBy: FieldSpec[];
  /** Output column expressions after the group fields: aggregates and maybe the geometry. */
  columns: string[];
  /** Name of the COUNT(*) column: without groups, an empty layer must give no row at all. */
  countName: string;
}

async function writeGroups(
  ws: Workspace,
  a: StagedLayer,
  target: OutputTarget,
  query: GroupQuery,
  ctx: AlgorithmContext,
  verb: string,
): Promise<void> {
  const groupCols = query.groupBy.map((f) => `a.${q(f.name)}`);
  const select = `SELECT ${[...groupCols, ...query.columns].join(', ')} FROM a`;
  if (groupCols.length === 0) {
    ctx.progress(0.4, verb);
    await appendSelect(ws, target, `SELECT * FROM (${select}) WHERE ${q(query.countName)} > 0`);
    return;
  }
  const groupBy = ` GROUP BY ${groupCols.join(', ')}`;
  const batches = 10;
  const span = Math.max(1, a.maxFid - a.minFid + 1);
  const size = Math.ceil(span / batches);
  for (let lo = a.minFid, i = 1; lo <= a.maxFid; lo += size, i++) {
    throwIfCancelled(ctx.signal);
    await appendSelect(ws, target, `${select}${groupBy} HAVING MIN(a.fid) BETWEEN ${lo} AND ${lo + size - 1}`);
    ctx.progress(0.3 + (0.68 * Math.min(span, i * size)) / span, `${verb}: batch ${i} of ${Math.ceil(span / size)}`);
  }
}

const dissolvedGeometry = 'ST_UnaryUnion(ST_Collect(a.geom)) AS geom';

export const runDissolve: AlgorithmRun = async (params, output, ctx) => {
  const p = dissolve.params.extend({ input: z.string() }).parse(params);
  return runSingle(p.input, ctx, { makeValid: true }, async ({ ws, a }) => {
    if (a.dimension === null) throw new BadInputError(`${path.basename(a.source)} has no geometry to dissolve`);
    const groupBy = p.by ? resolveFields(p.by, a.fields, 'by', a.source) : [];
    const count = new NameAllocator(groupBy.map((f) => f.name)).take('feature_count');
    const target = await createOutput(output, {
      srs: a.srs,
      geometryType: multiType(a.dimension),
      fields: [...groupBy, { name: count, type: 'integer', width: 0, precision: 0 }],
    });
    await writeGroups(
      ws,
      a,
      target,
      { groupBy, columns: [`COUNT(*) AS ${q(count)}`, dissolvedGeometry], countName: count },
      ctx,
      'Dissolving',
    );
    return { target, notes: [] };
  });
};

export const runAggregate: AlgorithmRun = async (params, output, ctx) => {
  const p = aggregate.params.extend({ input: z.string() }).parse(params);
  const withGeometry = p.geometry === 'dissolve';
  return runSingle(p.input, ctx, { makeValid: withGeometry }, async ({ ws, a }) => {
    if (withGeometry && a.dimension === null)
      throw new BadInputError(`${path.basename(a.source)} has no geometry to dissolve; use geometry "none"`);
    const groupBy = resolveFields(p.group_by, a.fields, 'group_by', a.source);
    const fields = p.fields ? resolveFields(p.fields, a.fields, 'fields', a.source) : [];
    const names = new NameAllocator(groupBy.map((f) => f.name));
    const count = names.take('count');
    const outFields: FieldSpec[] = [...groupBy, { name: count, type: 'integer', width: 0, precision: 0 }];
    const columns = [`COUNT(*) AS ${q(count)}`];
    for (const field of fields) {
      for (const stat of p.statistics) {
        if ((stat === 'sum' || stat === 'mean') && !NUMERIC_TYPES.has(field.type)) {
          throw new BadInputError(`'fields': ${field.name} is ${field.type}; ${stat} needs a numeric field`);
        }
        const name = names.take(`${field.name}_${stat}`);
        outFields.push({ name, type: statType(stat, field), width: 0, precision: 0 });
        columns.push(`${STAT_SQL[stat]}(a.${q(field.name)}) AS ${q(name)}`);
      }
    }
    if (withGeometry) columns.push(dissolvedGeometry);
    const target = await createOutput(output, {
      srs: a.srs,
      geometryType: withGeometry ? multiType(a.dimension!) : 100,
      fields: outFields,
    });
    await writeGroups(ws, a, target, { groupBy, columns, countName: count }, ctx, 'Aggregating');
    return { target, notes: [] };
  });
};

function statType(stat: keyof typeof STAT_SQL, field: FieldSpec): string {
  if (stat === 'count') return 'integer';
  if (stat === 'mean' || field.type === 'real') return stat === 'min' || stat === 'max' ? field.type : 'real';
  if (stat === 'sum') return 'integer64';
  return field.type;
}

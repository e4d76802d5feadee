import { classBreaks, classCounts } from '../../../src-shared/style/classify.js';
import { filterSql, parseFilter, FilterSyntaxError, filterFields } from '../../../src-shared/style/ruleFilter.js';
import type { ClassifyResult, CountRulesResult, RasterCutResult, UniqueValuesResult } from '../../../src-shared/worker/styleCalls.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { openSource } from '../openSource.js';
import { cumulativeCut } from '../style/cumulativeCut.js';
import { categoryValue, eachRow, numericValues, withVector } from '../style/fieldValues.js';
import { quoteIdentifier } from '../../../src-shared/sql/quote.js';
import { labelPoints } from '../style/labelPoints.js';
import type { WorkerFamily, WorkerFunction } from './types.js';

/**
 * Reads a numeric field and computes class breaks and counts (see src-shared/style/classify.ts),
 * over the features that also have numbers in `alsoNumeric` when given.
 */
const classify: WorkerFunction<'style.classify'> = async (args, ctx) => {
  const also = (args.alsoNumeric ?? []).filter((f) => f !== args.field);
  return withVector(args.source, [args.field, ...also], async (opened) => {
    ctx.progress(0, `Reading ${args.field}`);
    const { sorted, nulls } = await numericValues(opened, args.field, ctx.signal, also);
    throwIfCancelled(ctx.signal);
    const values = Array.from(sorted);
    const breaks = classBreaks(values, args.method, args.classes);
    const result: ClassifyResult = {
      breaks,
      counts: breaks.length >= 2 ? classCounts(values, breaks) : [],
      min: values.length ? values[0]! : null,
      max: values.length ? values[values.length - 1]! : null,
      valid: values.length,
      nulls,
    };
    return result;
  });
};

/** Distinct values with counts, most frequent first, cut at `limit`. */
const uniqueValues: WorkerFunction<'style.unique_values'> = async (args, ctx) => {
  return withVector(args.source, [args.field], async (opened) => {
    const f = quoteIdentifier(args.field);
    const rows: { value: string | number | boolean | null; count: number }[] = [];
    await eachRow(
      opened,
      `SELECT ${f} AS v, COUNT(*) AS n FROM ${quoteIdentifier(opened.layer.name)} GROUP BY ${f}`,
      ([v, n]) => rows.push({ value: categoryValue(v), count: Number(n) }),
      ctx.signal,
    );
    // Most frequent first; ties in natural order so the result does not depend on the driver.
    rows.sort((a, b) => b.count - a.count || compareValues(a.value, b.value));
    const kept = rows.slice(0, args.limit);
    const result: UniqueValuesResult = {
      values: kept,
      distinct: rows.length,
      otherFeatures: rows.slice(args.limit).reduce((s, r) => s + r.count, 0),
    };
    return result;
  });
};

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/** Features per rule with first-match semantics, as the map draws them. */
const countRules: WorkerFunction<'style.count_rules'> = async (args, ctx) => {
  const parsed = args.filters.map((text, i) => {
    try {
      return parseFilter(text);
    } catch (err) {
      if (err instanceof FilterSyntaxError) throw new BadInputError(`rule ${i + 1}: ${err.message}`);
      throw err;
    }
  });
  const fields = [...new Set(parsed.flatMap(filterFields))];
  return withVector(args.source, fields, async (opened) => {
    const cases = parsed.map((node, i) => `WHEN ${filterSql(node)} THEN ${i}`).join(' ');
    const counts = new Array<number>(parsed.length).fill(0);
    let unmatched = 0;
    await eachRow(
      opened,
      `SELECT CASE ${cases} ELSE -1 END AS r, COUNT(*) AS n FROM ${quoteIdentifier(opened.layer.name)} GROUP BY r`,
      ([r, n]) => {
        const i = Number(r);
        if (i >= 0 && i < counts.length) counts[i] = Number(n);
        else unmatched += Number(n);
      },
      ctx.signal,
    );
    const result: CountRulesResult = { counts, unmatched };
    return result;
  });
};

/** The cumulative cut of raster bands, from GDAL's histogram (gdalinfo -hist). */
const rasterCut: WorkerFunction<'style.raster_cut'> = async (args, ctx) => {
  if (!(args.lower < args.upper)) throw new BadInputError(`The lower cut (${args.lower} %) must be below the upper (${args.upper} %)`);
  const opened = await openSource(args.source);
  try {
    if (opened.kind !== 'raster') throw new BadInputError(`${opened.path} is a vector layer; it has no raster bands`);
    const count = await opened.ds.bands.countAsync();
    const out: RasterCutResult['bands'] = [];
    for (const [i, band] of args.bands.entries()) {
      if (band > count) throw new BadInputError(`${opened.path} has ${count} band${count === 1 ? '' : 's'}; there is no band ${band}`);
      ctx.progress(i / args.bands.length, `Histogram of band ${band}`);
      const cut = await cumulativeCut(opened.ds, band, args.lower, args.upper, opened.path);
      throwIfCancelled(ctx.signal);
      out.push(
        cut
          ? { band, min: cut.min, max: cut.max, dataMin: cut.dataMin, dataMax: cut.dataMax, validPixels: cut.validPixels }
          : { band, min: null, max: null, dataMin: null, dataMax: null, validPixels: 0 },
      );
    }
    const result: RasterCutResult = { bands: out };
    return result;
  } finally {
    opened.ds.close();
  }
};

/** Label points of polygons (GeoJSON text), for the map's label layer. */
const labelPointsFn: WorkerFunction<'style.label_points'> = async (args, ctx) => {
  return labelPoints(args.source, args.fields, ctx.signal);
};

/** The style family (src-shared/worker/styleCalls.ts). */
export const STYLE_FUNCTIONS: WorkerFamily<'style'> = {
  'style.classify': classify,
  'style.unique_values': uniqueValues,
  'style.count_rules': countRules,
  'style.raster_cut': rasterCut,
  'style.label_points': labelPointsFn,
};

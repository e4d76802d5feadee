import { z } from 'zod';
import { defineTableAlgorithm } from './algorithmSpec.js';
import { fieldList, newFieldName } from './fieldParams.js';
import { layerParam as layer } from './params.js';
import { expressionSyntaxProblem } from './sqlExpression.js';

/** Algorithms that work on attributes: filters, calculated fields, joins, aggregation. Plain tables are welcome. */

/** An SQLite-dialect expression, syntax-checked here and checked against the real fields in the worker. */
const expression = (what: string) =>
  z
    .string()
    .min(1)
    .max(4000)
    .superRefine((value, ctx) => {
      const problem = expressionSyntaxProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(what);

export const selectByAttribute = defineTableAlgorithm({
  id: 'select_by_attribute',
  title: 'Select by attribute',
  description:
    'Keeps the features whose attributes satisfy `where`, an SQLite expression over the field names, e.g. ' +
    "`POP_EST > 1e8 AND CONTINENT = 'Asia'` or `NAME LIKE 'A%'` (text in single quotes; no sub-queries). " +
    'Output: a new GeoPackage layer with the selected features; the feature count says how many matched.',
  params: z.object({
    input: layer,
    where: expression('Filter expression, e.g. "pop > 1000000 AND continent = \'Africa\'"'),
  }),
});

export const fieldCalculator = defineTableAlgorithm({
  id: 'field_calculator',
  title: 'Field calculator',
  description:
    'Computes a field from an SQLite expression over the fields of each feature (arithmetic, CASE WHEN, text ' +
    'functions, round(), and geometry measures of `geom` such as ST_Area(geom) — in the layer CRS units; use ' +
    'area_length for true areas on degree layers). Integers divide as integers in SQLite: write 1.0 * a / b. ' +
    'A field of the same name is replaced. Output: a new GeoPackage ' +
    'layer with all input fields plus the computed one.',
  params: z.object({
    input: layer,
    field_name: newFieldName,
    expression: expression('Expression, e.g. "pop_est / 1e6" or "CASE WHEN gdp > 1000 THEN \'high\' ELSE \'low\' END"'),
    field_type: z.enum(['real', 'integer', 'text']).default('real').describe('Type of the new field'),
  }),
});

const keyList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(5)]);

export const joinByField = defineTableAlgorithm({
  id: 'join_by_field',
  title: 'Join attributes by field value',
  description:
    'Joins the rows of `table` (a plain table such as a CSV of statistics, or another layer) to the features of ' +
    '`input` where the key fields hold the same value — compared as text after trimming spaces, optionally ignoring ' +
    'case; with duplicated keys the first table row is used. Output: a new GeoPackage layer with input geometries and ' +
    'attributes plus the table fields, and a `report` listing unmatched keys on both sides and duplicated table keys: ' +
    'read it and tell the person which rows did not join.',
  params: z.object({
    input: layer.describe('Project layer id or exact name of the layer that receives the fields'),
    table: layer.describe('Project table or layer id or exact name that provides the fields'),
    input_keys: keyList.describe('Key field of input (or several, for a composite key)'),
    table_keys: keyList.describe('Matching key field of table (same number as input_keys)'),
    fields: fieldList.optional().describe('Table fields to bring over (default: all but the keys)'),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_]{0,20}$/)
      .default('')
      .describe('Prefix for the joined field names; clashing names get a _2 suffix anyway'),
    case_insensitive: z.boolean().default(false).describe('Compare keys ignoring upper/lower case'),
    keep_unmatched: z.boolean().default(true).describe('Keep input features without a matching row (joined fields empty)'),
  }),
  layerParams: ['input', 'table'],
});

export const aggregate = defineTableAlgorithm({
  id: 'aggregate',
  title: 'Aggregate by attribute',
  description:
    'Groups the features by the `group_by` fields and computes statistics of numeric `fields` per group ' +
    '(<field>_<stat>, plus a count field). geometry "none" gives a plain table; "dissolve" merges each group\'s ' +
    'geometries. Output: a new GeoPackage table or layer with one row per group.',
  params: z.object({
    input: layer,
    group_by: fieldList.describe('Fields whose values form the groups'),
    fields: fieldList.optional().describe('Numeric fields to summarise (default: none, only the count)'),
    statistics: z
      .array(z.enum(['sum', 'mean', 'min', 'max', 'count']))
      .min(1)
      .default(['sum', 'mean'])
      .describe('Statistics per field; count counts non-empty values'),
    geometry: z.enum(['none', 'dissolve']).default('none').describe('none: a table; dissolve: merged geometry per group'),
  }),
});

export const ATTRIBUTE_ALGORITHMS = [selectByAttribute, fieldCalculator, joinByField, aggregate];

import { z } from 'zod';
import { filterFields, FilterSyntaxError, parseFilter } from '../../src-shared/style/ruleFilter.js';
import type { RuleBasedStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { applySymbolParams, ColourParam, currentSymbol, requireField, saveStyle, SymbolParams, VECTOR_LAYER } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

const FILTER_HELP =
  "Filters compare a field with a value: POP_EST > 1000000, CONTINENT = 'Africa', NAME in ('Chad', 'Niger'), " +
  'GDP_MD is null, combined with and, or, not and parentheses. Text in single quotes; field names with spaces in double quotes.';

const Rule = z.object({
  filter: z.string().min(1).describe(`Which features, e.g. "POP_EST > 1000000 and CONTINENT = 'Africa'"`),
  colour: ColourParam.describe('#rrggbb'),
  label: z.string().optional().describe('Legend text; default: the filter'),
  size: z.number().min(0).max(50).optional().describe('Point radius or line width for this rule, pixels'),
});

export const rules = defineTool({
  id: 'style.rules',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Rule-based style',
  description:
    'Colours the features of a vector layer by rules: each rule is a filter and a colour, tried in order, the first ' +
    `match wins; features no rule matches take else_colour, or are hidden when it is null. ${FILTER_HELP} ` +
    'Filters are checked against the layer fields before anything changes. Labels already set are kept. Returns the ' +
    'layer and each rule with its colour and the number of features it takes.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a vector layer)'),
    rules: z.array(Rule).min(1).max(50).describe('Rules in priority order'),
    else_colour: ColourParam.nullable().default(null).describe('Colour of features no rule matches; null hides them'),
    else_label: z.string().optional().describe('Legend text for else_colour'),
    ...SymbolParams,
  }),
  rules: { layer: VECTOR_LAYER },
  safety: 'write',
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Style ${a.layer} by ${a.rules.length} rule${a.rules.length === 1 ? '' : 's'}`,
  async prepare(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    args.rules.forEach((rule, i) => {
      let node;
      try {
        node = parseFilter(rule.filter);
      } catch (err) {
        if (!(err instanceof FilterSyntaxError)) throw err;
        throw new ToolFailure('invalid_params', `rules[${i}].filter "${rule.filter}": ${err.message}.`, true, FILTER_HELP);
      }
      for (const field of filterFields(node)) requireField(layer, field, `rules[${i}].filter`);
    });
    const counted = await handles.gdal.call(
      'style.count_rules',
      { source: layerSource(layer), filters: args.rules.map((r) => r.filter) },
      { signal },
    );
    const preview: Record<string, string | number | boolean | null> = { layer: layer.name };
    args.rules.forEach((r, i) => {
      preview[`rule ${i + 1}`] = `${r.filter} → ${r.colour} (${counted.counts[i] ?? 0} features)`;
    });
    preview[args.else_colour ? 'else' : 'hidden (no rule matches)'] = `${counted.unmatched} features`;
    return { args, preview };
  },
  async execute(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    const style: RuleBasedStyle = applySymbolParams(
      {
        type: 'rules' as const,
        rules: args.rules.map((r) => ({
          filter: r.filter,
          colour: r.colour,
          label: r.label ?? r.filter,
          ...(r.size !== undefined ? { size: r.size } : {}),
        })),
        elseColour: args.else_colour,
        ...(args.else_label ? { elseLabel: args.else_label } : {}),
        ...currentSymbol(layer),
      },
      args,
    );
    const counted = await handles.gdal.call(
      'style.count_rules',
      { source: layerSource(layer), filters: args.rules.map((r) => r.filter) },
      { signal },
    );
    return {
      ...saveStyle(handles.project, layer, style),
      rules: style.rules.map((r, i) => ({ filter: r.filter, colour: r.colour, features: counted.counts[i] ?? 0 })),
      unmatched_features: counted.unmatched,
      unmatched_shown: args.else_colour !== null,
    };
  },
});

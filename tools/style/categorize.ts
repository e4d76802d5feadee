import { z } from 'zod';
import { categoryColours } from '../../src-shared/style/colourRamps.js';
import { CategoryValue, type CategorizedStyle } from '../../src-shared/style/styleModel.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { applySymbolParams, ColourParam, currentSymbol, saveStyle, SymbolParams, VECTOR_LAYER } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

const Category = z.object({
  value: CategoryValue.describe('A value of the field (null for features without one)'),
  colour: ColourParam.describe('#rrggbb'),
  label: z.string().optional().describe('Legend text; default: the value'),
  count: z.number().int().optional().describe('Features with this value (filled in from the data)'),
});

export const categorize = defineTool({
  id: 'style.categorize',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Categorized style (unique values)',
  description:
    'Colours a vector layer by the unique values of one field (text or numbers), each value its own colour. The ' +
    'values and their feature counts are read from the data, most frequent first; values beyond max_categories ' +
    'share other_colour (or are hidden when it is null). Pass categories to choose colours yourself. Labels already ' +
    'set are kept. Returns the layer, the field and the categories with colour and feature count.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a vector layer)'),
    field: z.string().min(1).describe('Field whose values become the categories'),
    max_categories: z.number().int().min(1).max(100).default(12).describe('At most this many categories (the most frequent values)'),
    other_colour: ColourParam.nullable().default('#bbbbbb').describe('Colour of all other values; null hides them'),
    categories: z.array(Category).max(250).optional().describe('Explicit value → colour pairs; default: computed from the data'),
    ...SymbolParams,
  }),
  rules: { layer: VECTOR_LAYER, field: ['field_exists:layer'] },
  safety: 'write',
  // The style panel runs it as the person (entries/trigger), audited and undoable like the model's call.
  userVisible: true,
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Colour ${a.layer} by ${a.field}`,
  async prepare(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    let categories = args.categories;
    let other = 0;
    let distinct: number | null = null;
    if (!categories) {
      const found = await handles.gdal.call(
        'style.unique_values',
        { source: layerSource(layer), field: args.field, limit: args.max_categories },
        { signal },
      );
      const colours = categoryColours(found.values.length);
      categories = found.values.map((v, i) => ({
        value: v.value,
        colour: colours[i]!,
        label: v.value === null ? '(no value)' : String(v.value),
        count: v.count,
      }));
      other = found.otherFeatures;
      distinct = found.distinct;
    }
    return {
      args: { ...args, categories },
      preview: {
        layer: layer.name,
        field: args.field,
        categories: categories.length,
        ...(distinct !== null ? { distinct_values: distinct, features_in_other: other } : {}),
        values:
          categories
            .slice(0, 8)
            .map((c) => `${String(c.value)}${c.count !== undefined ? ` (${c.count})` : ''}`)
            .join(', ') + (categories.length > 8 ? ', …' : ''),
      },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const categories = args.categories ?? [];
    const style: CategorizedStyle = applySymbolParams(
      {
        type: 'categorized' as const,
        field: args.field,
        categories: categories.map((c) => ({
          value: c.value,
          colour: c.colour,
          label: c.label ?? (c.value === null ? '(no value)' : String(c.value)),
        })),
        otherColour: args.other_colour,
        ...currentSymbol(layer),
      },
      args,
    );
    return {
      ...saveStyle(handles.project, layer, style),
      field: args.field,
      categories: categories.map((c) => ({ value: c.value, colour: c.colour, ...(c.count !== undefined ? { count: c.count } : {}) })),
      other_colour: args.other_colour,
    };
  },
});

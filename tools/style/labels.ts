import { z } from 'zod';
import { isLabelledStyle, LabelStyle, templateFields, type LayerStyle } from '../../src-shared/style/styleModel.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { ColourParam, geometryOf, type Preview, requireField, saveStyle, VECTOR_LAYER } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

export const labels = defineTool({
  id: 'style.labels',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Labels',
  description:
    'Labels the features of a vector layer with a field, or with text combining fields: text "{NAME} ({ISO_A3})" ' +
    'puts each feature’s values in place of {FIELD}. Size, colour, halo, placement (point: at points and inside ' +
    'polygons; line: along lines) and the zoom from which labels appear. The colouring of the layer is kept; ' +
    'remove: true takes the labels away. Labels collide-check, so crowded ones are skipped at small scales. ' +
    'Returns the layer, the label text template and the settings used.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a vector layer)'),
    field: z.string().min(1).optional().describe('Field to label with (or give text)'),
    text: z.string().min(1).max(200).optional().describe('Template with {FIELD} placeholders, e.g. "{NAME}\\n{POP_EST}"'),
    size: z.number().min(4).max(72).default(12).describe('Text size in pixels'),
    colour: ColourParam.default('#222222').describe('Text colour'),
    halo_colour: ColourParam.default('#ffffff').describe('Halo (outline) colour around the text'),
    halo_width: z.number().min(0).max(10).default(1.5).describe('Halo width in pixels (0 = none)'),
    placement: z.enum(['point', 'line']).optional().describe('point or line; default: line for line layers, point otherwise'),
    min_zoom: z.number().min(0).max(24).default(0).describe('Show labels from this zoom level on'),
    remove: z.boolean().default(false).describe('true: remove the labels instead'),
  }),
  rules: { layer: VECTOR_LAYER, field: ['field_exists:layer'] },
  safety: 'write',
  // The style panel runs it as the person (entries/trigger), audited and undoable like the model's call.
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => (a.remove ? `Remove labels of ${a.layer}` : `Label ${a.layer} with ${a.text ?? a.field ?? '?'}`),
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    if (!isLabelledStyle(layer.style)) {
      throw new ToolFailure(
        'invalid_params',
        `'${layer.name}' is drawn as a ${layer.style.type}, which takes no labels.`,
        false,
        'Give it a point style first (style_set_simple), then label it.',
      );
    }
    if (args.remove) {
      const removed: Preview = { layer: layer.name, labels: 'removed' };
      return { args, preview: removed };
    }
    if (!args.field && !args.text)
      throw new ToolFailure(
        'invalid_params',
        'Give field (a field name) or text (a template such as "{NAME}").',
        true,
        `Fields of '${layer.name}': ${layer.info.fields.map((f) => f.name).join(', ')}.`,
      );
    const text = args.text ?? `{${args.field!}}`;
    const fields = templateFields(text);
    if (fields.length === 0)
      throw new ToolFailure('invalid_params', `text "${text}" names no field; put field names in braces, e.g. "{NAME}".`, true);
    // A `field` was checked by its rule; the names inside a template only here.
    if (args.text) for (const f of fields) requireField(layer, f, 'text');
    const placement = args.placement ?? (geometryOf(layer) === 'line' ? 'line' : 'point');
    return {
      args: { ...args, text, placement },
      preview: { layer: layer.name, text, size: args.size, placement, min_zoom: args.min_zoom },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const current = layer.style;
    if (!isLabelledStyle(current)) throw new ToolFailure('invalid_params', `'${layer.name}' takes no labels.`, false);
    if (args.remove) {
      const { labels: _removed, ...rest } = current;
      return { ...saveStyle(handles.project, layer, rest as LayerStyle), labels: null };
    }
    const label = LabelStyle.parse({
      text: args.text!,
      size: args.size,
      colour: args.colour,
      haloColour: args.halo_colour,
      haloWidth: args.halo_width,
      placement: args.placement ?? 'point',
      minZoom: args.min_zoom,
    });
    return {
      ...saveStyle(handles.project, layer, { ...current, labels: label }),
      labels: { text: label.text, size: label.size, placement: label.placement, min_zoom: label.minZoom },
    };
  },
});

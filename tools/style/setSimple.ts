import { z } from 'zod';
import { defaultVectorStyle, type SimpleVectorStyle } from '../../src-shared/style/styleModel.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { applySymbolParams, ColourParam, currentSymbol, geometryOf, saveStyle, SymbolParams, VECTOR_LAYER } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

export const setSimpleStyle = defineTool({
  id: 'style.set_simple',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Single-colour style',
  description:
    'Draws every feature of a vector layer in one colour (polygons filled and outlined, lines, or point circles), ' +
    'with optional outline colour, width, point size and opacity. Labels already set are kept. ' +
    'Returns the layer id, name, style type and the colours used.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (a vector layer)'),
    fill: ColourParam.optional().describe('Colour of polygons, lines and points, #rrggbb; default: keep the current one'),
    ...SymbolParams,
  }),
  rules: { layer: VECTOR_LAYER },
  safety: 'write',
  // The style panel runs it as the person (entries/trigger), audited and undoable like the model's call.
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Colour ${a.layer}${a.fill ? ` ${a.fill}` : ''}`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    return { args, preview: { layer: layer.name, geometry: geometryOf(layer), fill: args.fill ?? 'unchanged' } };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const fill = args.fill ?? (layer.style.type === 'simple' ? layer.style.fill : defaultVectorStyle(layer.order).fill);
    const style: SimpleVectorStyle = applySymbolParams({ type: 'simple' as const, fill, ...currentSymbol(layer) }, args);
    return {
      ...saveStyle(handles.project, layer, style),
      fill: style.fill,
      stroke: style.stroke,
      stroke_width: style.strokeWidth,
      size: style.pointRadius,
    };
  },
});

import { z } from 'zod';
import { defaultVectorStyle, type ExtrudeStyle } from '../../src-shared/style/styleModel.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { ColourParam, currentSymbol, NUMERIC_FIELD, saveStyle, VECTOR_LAYER } from './styleLayer.js';

/** Polygons in 3D: MapLibre's fill-extrusion, height from a numeric field (compileVector.ts). */
export const extrude = defineTool({
  id: 'style.extrude',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Extrude polygons (3D)',
  description: 'Raises polygons in 3D: height in metres = numeric field × scale. Returns the layer, field and scale.',
  input: z.object({
    layer: z.string().min(1).describe('Polygon layer id or name'),
    field: z.string().min(1).describe('Numeric field'),
    scale: z.number().positive().max(1e9).default(1).describe('Metres per unit of the field'),
    color: ColourParam.optional().describe('#rrggbb; default: keep'),
  }),
  // Only polygons have a top to raise.
  rules: { layer: [...VECTOR_LAYER, 'geometry:polygon'], field: NUMERIC_FIELD },
  safety: 'write',
  // The style panel runs it as the person (entries/trigger), audited and undoable like the model's call.
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Extrude ${a.layer} by ${a.field} × ${a.scale}`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    return { args, preview: { layer: layer.name, field: args.field, height: `${args.field} × ${args.scale} m` } };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const current = layer.style;
    const fill = args.color ?? ('fill' in current ? current.fill : defaultVectorStyle(layer.order).fill);
    // Outline, opacity and labels carry over from the current style.
    const style: ExtrudeStyle = { type: 'extrude', field: args.field, scale: args.scale, fill, ...currentSymbol(layer) };
    return { ...saveStyle(handles.project, layer, style), field: style.field, scale: style.scale, color: style.fill };
  },
});

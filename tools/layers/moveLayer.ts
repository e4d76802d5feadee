import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

export const moveLayer = defineTool({
  id: 'layers.move',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Reorder layer',
  description:
    "Moves a layer one step up (drawn above) or down (drawn below) in the stack, or to 'top' or 'bottom'. " +
    'Returns the new stack, top first.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name'),
    direction: z.enum(['up', 'down', 'top', 'bottom']).describe('up = drawn above its neighbour; top = drawn above all'),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Move layer ${a.layer} ${a.direction === 'top' || a.direction === 'bottom' ? `to the ${a.direction}` : a.direction}`,
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const count = handles.project.listLayers().length;
    const target = { up: layer.order + 1, down: layer.order - 1, top: count - 1, bottom: 0 }[args.direction];
    const layers = handles.project.moveLayer(layer.id, target);
    return { stack_top_first: [...layers].reverse().map((l) => l.name) };
  },
});

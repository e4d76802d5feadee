import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

export const setLayerOpacity = defineTool({
  id: 'layers.set_opacity',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Set layer opacity',
  description: 'Sets how opaque a layer is drawn, from 0 (invisible) to 1 (opaque). Returns the layer id, name and new opacity.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name'),
    opacity: z.number().min(0).max(1).describe('0 = transparent, 1 = opaque'),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Set opacity of ${a.layer} to ${Math.round(a.opacity * 100)} %`,
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const updated = handles.project.updateLayer(layer.id, { opacity: args.opacity });
    return { id: updated.id, name: updated.name, opacity: updated.opacity };
  },
});

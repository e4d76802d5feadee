import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

export const setLayerVisibility = defineTool({
  id: 'layers.set_visibility',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Show or hide layer',
  description: 'Shows or hides a layer on the map without removing it. Returns the layer id, name and visibility.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name'),
    visible: z.boolean().describe('true to show the layer, false to hide it'),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `${a.visible ? 'Show' : 'Hide'} layer ${a.layer}`,
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const updated = handles.project.updateLayer(layer.id, { visible: args.visible });
    return { id: updated.id, name: updated.name, visible: updated.visible };
  },
});

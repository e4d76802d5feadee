import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

export const removeLayer = defineTool({
  id: 'layers.remove',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Remove layer',
  description:
    'Removes a layer from the project (the file on disk is not touched). Returns the removed layer id and name ' +
    'and the layers that remain.',
  input: z.object({ layer: z.string().min(1).describe('Layer id or exact name') }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Remove layer ${a.layer}`,
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    handles.project.removeLayer(layer.id);
    return { removed: { id: layer.id, name: layer.name }, remaining: handles.project.listLayers().map((l) => l.name) };
  },
});

import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

export const renameLayer = defineTool({
  id: 'layers.rename',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Rename layer',
  description:
    'Gives a layer a new name in the layer list (the file on disk is not touched). Names are unique in a ' +
    'project, since inspect_sql uses them as table names. Returns the layer id, its old and new name.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact current name'),
    name: z.string().trim().min(1).max(120).describe('The new name'),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Rename ${a.layer} to '${a.name}'`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const clash = handles.project.listLayers().find((l) => l.name === args.name && l.id !== layer.id);
    if (clash)
      throw new ToolFailure(
        'invalid_params',
        `Another layer is already named '${args.name}'.`,
        false,
        'Choose a name not in inspect_list_layers.',
      );
    return { args, preview: { layer: layer.name, new_name: args.name } };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const updated = handles.project.updateLayer(layer.id, { name: args.name });
    return { id: updated.id, old_name: layer.name, name: updated.name };
  },
});

import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerArg } from './editParams.js';
import { editableLayer, startEditing as start, whereItGoes } from './editSession.js';

export const startEditingTool = defineTool({
  id: 'edit.start',
  version: '1.0.0',
  group: 'edit',
  icon: 'layers',
  title: 'Start editing',
  description:
    'Makes an editable working copy of a layer in the project (the original is never changed); edit tools do this themselves. Returns the copy path.',
  input: z.object({ layer: layerArg }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  userVisible: true,
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 10 * 60_000,
  summary: (a) => `Start editing ${a.layer} (working copy)`,
  async prepare(args, { handles }) {
    return { args, preview: whereItGoes(editableLayer(handles.project, args.layer)) };
  },
  async execute(args, { handles, signal, progress }) {
    const before = editableLayer(handles.project, args.layer);
    const layer = await start(handles, before, signal, progress);
    return {
      layer: layer.name,
      working_copy: layer.source,
      already_editing: before.editing !== undefined,
      feature_count: layer.info.featureCount,
    };
  },
});

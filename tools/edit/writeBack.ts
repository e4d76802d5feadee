import { z } from 'zod';
import { formatSource, layerSource } from '../../src-shared/domain/source.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerArg } from './editParams.js';
import { editableLayer } from './editSession.js';

/**
 * The one tool that writes over a source file: the working copy's layer replaces the original's
 * data, after the original's files are copied to the project's backups. Destructive: it always
 * asks, is never remembered, and undo cannot reach it — the backup is the way back.
 */
export const writeBackTool = defineTool({
  id: 'edit.write_back',
  version: '1.0.0',
  group: 'edit',
  icon: 'layers',
  title: 'Write edits back to the original',
  description:
    "Overwrites the layer's original file with its edited working copy, keeping a backup of the original; always asks. Returns the backup paths.",
  input: z.object({ layer: layerArg }),
  rules: { layer: ['layer_exists'] },
  safety: 'destructive',
  userVisible: true,
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 30 * 60_000,
  summary: (a) => `Write the edits of ${a.layer} over its original file`,
  async prepare(args, { handles, signal }) {
    const layer = editableLayer(handles.project, args.layer);
    if (!layer.editing) throw new ToolFailure('invalid_params', `'${layer.name}' has no edits: it is not being edited.`, false);
    const original = formatSource({ path: layer.editing.originalSource, sublayer: layer.editing.originalSublayer });
    const now = await handles.gdal.call('layers.describe', { source: original }, { signal });
    return {
      args,
      preview: {
        overwrites: original,
        original_features: now.featureCount,
        edited_features: layer.info.featureCount,
        original_fields: now.fields.map((f) => f.name).join(', '),
        edited_fields: layer.info.fields.map((f) => f.name).join(', '),
        backup_to: handles.project.editing.backupDir(),
        undo: 'not possible from the app; restore from the backup',
      },
    };
  },
  async execute(args, { handles, signal }) {
    const layer = editableLayer(handles.project, args.layer);
    if (!layer.editing) throw new ToolFailure('invalid_params', `'${layer.name}' is not being edited.`, false);
    const original = formatSource({ path: layer.editing.originalSource, sublayer: layer.editing.originalSublayer });
    const r = await handles.gdal.call(
      'edit.write_back',
      { copy: layerSource(layer), original, backupDir: handles.project.editing.backupDir() },
      { signal },
    );
    return { written: original, feature_count: r.featureCount, backup: r.backup };
  },
});

import { z } from 'zod';
import { formatSource, parseSource } from '../../src-shared/domain/source.js';
import { sourceParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer, layerSummary } from './findLayer.js';

/**
 * "Locate…" for a layer whose file is missing (a project opened on another machine, a file
 * moved): the person points the layer at the file's new place. Name, style and order stay;
 * the new file must hold the same kind of data. Person only: the model cannot repoint a layer.
 */
export const locateLayer = defineTool({
  id: 'layers.locate',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Locate layer file',
  description: "Points a layer at its file's new place, keeping name and style. Returns the layer.",
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name'),
    path: sourceParam("Absolute path of the file, optionally with '|layername=NAME'"),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  caller: 'user_only',
  userVisible: true,
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Locate ${a.layer} at ${a.path}`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    return { args, preview: { layer: layer.name, was: layer.source, now: args.path } };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const ref = parseSource(args.path);
    // A layer of a multi-layer file looks for the same layer name in the new file unless one is named.
    const source = formatSource({ path: ref.path, sublayer: ref.sublayer ?? layer.sublayer });
    const info = await handles.gdal.call('layers.describe', { source });
    if (info.kind !== layer.kind)
      throw new ToolFailure(
        'invalid_params',
        `${ref.path} holds ${info.kind} data; layer '${layer.name}' is a ${layer.kind} layer.`,
        false,
      );
    const sublayer = ref.sublayer ?? layer.sublayer;
    return { layer: layerSummary(handles.project.relocateLayer(layer.id, { source: ref.path, sublayer, info })) };
  },
});

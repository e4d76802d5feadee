import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerSummary } from '../layers/findLayer.js';

export const listLayers = defineTool({
  id: 'inspect.list_layers',
  version: '1.0.0',
  group: 'inspect',
  icon: 'search',
  title: 'List layers',
  description:
    'Lists the project layers, top first. Returns id, name, kind, source, CRS, geometry type, feature count, ' +
    'extent in degrees, visibility, opacity; inspect_layer_info has the fields.',
  input: z.object({}),
  safety: 'read',
  exec: 'main',
  handles: ['project'],
  summary: () => 'List the layers',
  async execute(_args, { handles }) {
    return { layers: [...handles.project.listLayers()].reverse().map(layerSummary) };
  },
});

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
    'Lists the layers of the project, top of the map first. Returns for each: id, name, kind (vector/raster), ' +
    'source path, CRS, geometry type, feature count, extent in degrees, visibility and opacity. Pass an id to ' +
    'inspect_layer_info for fields and bands.',
  input: z.object({}),
  safety: 'read',
  exec: 'main',
  handles: ['project'],
  summary: () => 'List the layers',
  async execute(_args, { handles }) {
    return { layers: [...handles.project.listLayers()].reverse().map(layerSummary) };
  },
});

import { z } from 'zod';
import { MAX_REPORTED_FIDS } from '../../src-shared/domain/mapSelection.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

export const mapSelection = defineTool({
  id: 'map.selection',
  version: '1.0.0',
  group: 'map',
  icon: 'map',
  title: 'Current selection',
  description:
    'The features the person selected on the map or in the table ("these", "this one"). Returns layerId, ' +
    `layerName, count and fids (the first ${MAX_REPORTED_FIDS.toLocaleString('en')}; capped when fewer than count).`,
  input: z.object({}),
  safety: 'read',
  exec: 'renderer',
  handles: ['map', 'project'],
  timeoutMs: 10_000,
  summary: () => 'Read the current selection',
  async execute(_args, { handles, signal }) {
    const selection = await handles.map.selection(signal);
    if (!('layerId' in selection)) {
      return { count: 0, message: 'Nothing is selected: the person has not selected any feature on the map or in the attribute table.' };
    }
    // The name comes from the project, not the renderer: the layer may have been renamed since.
    const layer = handles.project.getLayer(selection.layerId);
    if (!layer) return { count: 0, message: 'Nothing is selected: the selected layer is no longer in the project.' };
    return { layerId: layer.id, layerName: layer.name, count: selection.count, fids: selection.fids, capped: selection.capped };
  },
});

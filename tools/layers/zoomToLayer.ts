import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

export const zoomToLayer = defineTool({
  id: 'layers.zoom_to',
  version: '1.1.0',
  group: 'layers',
  icon: 'layers',
  title: 'Zoom to layer',
  description:
    "Moves the map view to a layer's full extent. A view change only: the project is not modified. " +
    'Returns the extent zoomed to as [west, south, east, north] in degrees and, once the map has settled, the view reached.',
  input: z.object({ layer: z.string().min(1).describe('Layer id or exact name') }),
  rules: { layer: ['layer_exists'] },
  safety: 'read',
  userVisible: true,
  exec: 'main',
  handles: ['project', 'map'],
  summary: (a) => `Zoom to ${a.layer}`,
  async execute(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    if (layer.kind === 'table')
      throw new ToolFailure('invalid_params', `'${layer.name}' is a table without geometry; it is not on the map.`, false);
    const bbox = layer.info.extent4326;
    if (!bbox) throw new ToolFailure('handler_error', `Layer '${layer.name}' has no known extent in degrees (no CRS?).`, false);
    // Resolves when the map has settled, so a `map.current_view` next sees the new view; null without a map window.
    const view = await handles.map.fitBounds(bbox, signal);
    return { zoomed_to: bbox, view };
  },
});

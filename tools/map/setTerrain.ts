import { z } from 'zod';
import type { Layer } from '../../src-shared/domain/layer.js';
import { isRasterStyle, type RasterStyle, type TerrainSettings } from '../../src-shared/style/styleModel.js';
import { defaultRasterStyle } from '../../src-shared/style/styleModel.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { RASTER_LAYER } from '../style/styleLayer.js';

/**
 * The map's 3D ground from a DEM layer: saved as the layer style's `terrain` (so it is undone
 * and reloaded with the project), which the renderer turns into a raster-dem source, MapLibre's
 * terrain, an optional hillshade and a tilted view (src-shared/style/compileTerrain.ts). The map
 * has one terrain: turning it on for one layer turns it off on the others.
 */
export const setTerrain = defineTool({
  id: 'map.set_terrain',
  version: '1.0.0',
  group: 'map',
  icon: 'map',
  title: '3D terrain',
  description: 'Shows a DEM raster as 3D terrain and tilts the map; off: true turns it off. Returns the layer and settings.',
  input: z.object({
    layer: z.string().min(1).describe('DEM raster layer id or name'),
    exaggeration: z.number().min(0).max(100).default(1.5).describe('Height multiplier'),
    hillshade: z.boolean().default(true).describe('Also shade the relief'),
    pitch: z.number().min(0).max(85).default(60).describe('View tilt, degrees'),
    off: z.boolean().default(false).describe('Turn the terrain off'),
  }),
  rules: { layer: RASTER_LAYER },
  safety: 'write',
  // The terrain toggle of the style panel runs it as the person (entries/trigger).
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => (a.off ? `3D terrain off (${a.layer})` : `3D terrain from ${a.layer} (×${a.exaggeration})`),
  async prepare(args, { handles }) {
    const layer = demLayer(handles.project, args.layer);
    const preview: Record<string, string | number | boolean> = args.off
      ? { layer: layer.name, terrain: 'off' }
      : { layer: layer.name, exaggeration: args.exaggeration, hillshade: args.hillshade, pitch: args.pitch };
    return { args, preview };
  },
  async execute(args, { handles }) {
    const project = handles.project;
    const layer = demLayer(project, args.layer);
    const terrain: TerrainSettings | null = args.off
      ? null
      : { exaggeration: args.exaggeration, hillshade: args.hillshade, pitch: args.pitch };
    // One terrain at a time: the others lose theirs.
    if (terrain) for (const other of project.listLayers()) if (other.id !== layer.id) saveTerrain(project, other, null);
    const saved = saveTerrain(project, layer, terrain);
    return { id: saved.id, name: saved.name, terrain: terrain ? 'on' : 'off', ...(terrain ?? {}) };
  },
});

function styleOf(layer: Layer): RasterStyle {
  return isRasterStyle(layer.style) ? layer.style : defaultRasterStyle();
}

function saveTerrain(project: ProjectHandle, layer: Layer, terrain: TerrainSettings | null): Layer {
  if (layer.kind !== 'raster') return layer;
  const { terrain: had, ...rest } = styleOf(layer);
  if (!terrain && !had) return layer;
  return project.updateLayer(layer.id, { style: (terrain ? { ...rest, terrain } : rest) as RasterStyle });
}

/** A raster of one band: the terrain reads band 1 as metres. */
function demLayer(project: ProjectHandle, ref: string): Layer {
  const layer = findLayer(project, ref);
  if (layer.info.bands.length !== 1) {
    throw new ToolFailure(
      'invalid_params',
      `layer: '${layer.name}' has ${layer.info.bands.length} bands; terrain needs a single-band elevation raster (a DEM).`,
      false,
      'Choose a DEM layer (inspect_list_layers shows each raster and its bands).',
    );
  }
  return layer;
}

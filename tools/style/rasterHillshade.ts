import { z } from 'zod';
import type { HillshadeRasterStyle } from '../../src-shared/style/styleModel.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { RASTER_LAYER, saveStyle } from './styleLayer.js';
import { findLayer } from '../layers/findLayer.js';

export const rasterHillshade = defineTool({
  id: 'style.raster_hillshade',
  version: '1.0.0',
  group: 'style',
  icon: 'palette',
  title: 'Raster hillshade',
  description:
    'Draws an elevation raster as shaded relief, computed per map tile from the elevations (Horn’s method, like ' +
    'gdaldem hillshade) in true ground units, so degree-based DEMs need no scale factor. Light azimuth and altitude ' +
    'in degrees; z_factor exaggerates relief or converts feet (0.3048). This changes only how the layer is drawn; ' +
    'to write a hillshade file use processing_run. Returns the layer and the settings used.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name (an elevation raster)'),
    band: z.number().int().min(1).default(1).describe('Elevation band, from 1'),
    azimuth: z.number().min(0).max(360).default(315).describe('Direction of the light, degrees clockwise from north (315 = north-west)'),
    altitude: z.number().min(0).max(90).default(45).describe('Height of the light above the horizon, degrees'),
    z_factor: z.number().positive().max(1000).default(1).describe('Vertical exaggeration (elevation units per metre)'),
  }),
  rules: { layer: RASTER_LAYER, band: ['band_exists:layer'] },
  safety: 'write',
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Hillshade ${a.layer} (light from ${a.azimuth}°, ${a.altitude}° high)`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    return {
      args,
      preview: { layer: layer.name, band: args.band, azimuth: args.azimuth, altitude: args.altitude, z_factor: args.z_factor },
    };
  },
  async execute(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    const style: HillshadeRasterStyle = {
      type: 'hillshade',
      band: args.band,
      azimuth: args.azimuth,
      altitude: args.altitude,
      zFactor: args.z_factor,
    };
    return {
      ...saveStyle(handles.project, layer, style),
      band: style.band,
      azimuth: style.azimuth,
      altitude: style.altitude,
      z_factor: style.zFactor,
    };
  },
});

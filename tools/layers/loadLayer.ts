import { z } from 'zod';
import { defaultLayerName, parseSource } from '../../src-shared/domain/source.js';
import { defaultRasterStyle, defaultVectorStyle } from '../../src-shared/style/styleModel.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { layerSummary } from './findLayer.js';

export const loadLayer = defineTool({
  id: 'layers.load',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Load layer',
  description:
    'Adds a GIS file to the project as a map layer. Vector: GeoJSON, Shapefile, GeoPackage (pick a layer with ' +
    "'path|layername=NAME'), FlatGeobuf, KML, CSV with lon/lat columns. Raster: GeoTIFF and other GDAL rasters. " +
    'The file is referenced, not copied. Returns the new layer (id, name, kind, CRS, geometry type, feature count, ' +
    'extent, other sublayers of the file); use its id with layers_zoom_to, layers_set_opacity or inspect_layer_info.',
  input: z.object({
    path: z.string().min(1).describe("Absolute path of the file, optionally with '|layername=NAME' for one layer of a GeoPackage"),
    name: z.string().min(1).max(120).optional().describe('Name shown in the layer list; defaults to the file or sublayer name'),
  }),
  safety: 'write',
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Load ${a.path}${a.name ? ` as '${a.name}'` : ''}`,
  async execute(args, { handles }) {
    const ref = parseSource(args.path);
    const info = await handles.gdal.describe(args.path);
    const name = args.name ?? defaultLayerName(ref);
    const index = handles.project.listLayers().length;
    const layer = handles.project.addLayer({
      name,
      source: ref.path,
      sublayer: ref.sublayer ?? (info.kind === 'vector' && info.sublayers.length > 1 ? (info.sublayers[0] ?? null) : null),
      info,
      style: info.kind === 'raster' ? defaultRasterStyle() : defaultVectorStyle(index),
    });
    return { layer: layerSummary(layer), other_sublayers: info.sublayers.filter((s) => s !== layer.sublayer) };
  },
});

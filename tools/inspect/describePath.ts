import { z } from 'zod';
import { sourceParam } from '../../src-shared/security/paramCapabilities.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

export const describePath = defineTool({
  id: 'inspect.describe_path',
  version: '1.1.0',
  group: 'inspect',
  icon: 'search',
  title: 'Describe file or folder',
  description:
    'Looks inside a GIS file or a folder without loading anything into the project. For a file returns the ' +
    'driver, size in bytes and every layer (vector layers, tables, GeoPackage raster tables) with geometry type, ' +
    'feature count, CRS and fields, or the raster size, bands and CRS. For a folder returns its GIS files one ' +
    'level deep (shapefile side files folded into the .shp), each described briefly, plus subfolder names; long ' +
    "folders are capped (truncated: true). Load what you need with layers_load, using 'path|layername=NAME' for one layer.",
  input: z.object({ path: sourceParam('Absolute path of a file or folder (a URL reaches the network and is asked for)') }),
  safety: 'read',
  exec: 'worker',
  handles: ['gdal'],
  timeoutMs: 120_000,
  summary: (a) => `Describe ${a.path}`,
  async execute(args, { handles, signal }) {
    return handles.gdal.call('inspect.describe_path', { path: args.path }, { signal });
  },
});

import type { Dataset, Layer, SpatialReference } from 'gdal-async';
import { parseSource } from '../../../src-shared/domain/source.js';
import { BadInputError } from '../errors.js';
import { layerSrs } from '../layerSrs.js';
import { openSource } from '../openSource.js';

export interface VectorInput {
  ds: Dataset;
  layer: Layer;
  path: string;
  srs: SpatialReference | null;
  close(): void;
}

/** Opens a vector source for an algorithm; a raster or an unreadable file is the person's to fix. */
export async function openVectorInput(source: string, param: string): Promise<VectorInput> {
  const opened = await openSource(source);
  if (opened.kind !== 'vector') {
    opened.ds.close();
    throw new BadInputError(`'${param}' must be a vector layer; ${opened.path} is a raster`);
  }
  const srs = await layerSrs(opened.ds, opened.layer.name);
  return { ds: opened.ds, layer: opened.layer, path: opened.path, srs, close: () => opened.ds.close() };
}

/** Where GDAL writes a GeoPackage output layer: `file|layername=NAME`. */
export function outputLayerName(output: string): { path: string; layerName: string } {
  const { path, sublayer } = parseSource(output);
  if (!sublayer) throw new Error(`Output must be 'path|layername=NAME', got ${output}`);
  return { path, layerName: sublayer };
}

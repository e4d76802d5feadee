import { z } from 'zod';
import { defineAlgorithm, type AlgorithmSpec } from './algorithmSpec.js';

const layer = z.string().min(1).describe('Project layer id or exact name');

export const reproject = defineAlgorithm({
  id: 'reproject',
  title: 'Reproject',
  description:
    'Transforms a vector layer to another CRS (e.g. a projected CRS in metres before measuring distances). ' +
    'Output: a new GeoPackage layer with the same features and attributes in target_crs.',
  params: z.object({
    input: layer,
    target_crs: z.string().regex(/^EPSG:\d{4,6}$/, "a CRS as 'EPSG:<code>'").describe("Target CRS, e.g. 'EPSG:32633'"),
  }),
  layerParams: ['input'],
  distanceParams: [],
  output: 'vector',
});

export const buffer = defineAlgorithm({
  id: 'buffer',
  title: 'Buffer',
  description:
    'Grows every feature of a vector layer by a distance in the layer CRS units (metres for projected CRSs). ' +
    'Refused on geographic (degree) layers: reproject first. Output: a new GeoPackage polygon layer with the ' +
    'input attributes.',
  params: z.object({
    input: layer,
    distance: z.number().positive().describe('Buffer distance in the layer CRS units (metres in a projected CRS)'),
    segments: z.number().int().min(1).max(90).default(8).describe('Segments per quarter circle'),
    dissolve: z.boolean().default(false).describe('Merge all buffers into one feature'),
  }),
  layerParams: ['input'],
  distanceParams: ['distance'],
  output: 'vector',
});

export const resample = defineAlgorithm({
  id: 'resample',
  title: 'Resample raster',
  description:
    'Resamples a raster to a new pixel size (gdalwarp -tr) in its own CRS units — degrees for a geographic raster, ' +
    'metres for a projected one. Finer pixels mean a much larger file and a longer job: say so before running. ' +
    'Output: a new tiled, compressed GeoTIFF.',
  params: z.object({
    input: layer,
    resolution: z.number().positive().describe('Target pixel size in the raster CRS units'),
    method: z.enum(['nearest', 'bilinear', 'cubic', 'average', 'mode']).default('bilinear'),
  }),
  layerParams: ['input'],
  distanceParams: [],
  output: 'raster',
});

/** Every algorithm of the `processing_run` tool, by id. */
export const ALGORITHMS: readonly AlgorithmSpec[] = [reproject, buffer, resample] as unknown as readonly AlgorithmSpec[];

export function findAlgorithm(id: string): AlgorithmSpec | undefined {
  return ALGORITHMS.find((a) => a.id === id);
}

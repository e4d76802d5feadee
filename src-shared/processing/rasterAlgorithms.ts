import { z } from 'zod';
import type { AlgorithmSpec } from './algorithmSpec.js';
import { defineAlgorithm } from './algorithmSpec.js';
import { layerParam as layer } from './params.js';

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

/** The raster algorithms of the catalogue. */
export const RASTER_ALGORITHMS = [resample] as unknown as readonly AlgorithmSpec[];

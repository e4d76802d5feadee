import { z } from 'zod';
import type { AlgorithmSpec } from './algorithmSpec.js';
import { defineAlgorithm } from './algorithmSpec.js';
import { ATTRIBUTE_ALGORITHMS } from './attributeAlgorithms.js';
import { GEOMETRY_ALGORITHMS } from './geometryAlgorithms.js';
import { OVERLAY_ALGORITHMS } from './overlayAlgorithms.js';
import { epsgParam, layerParam as layer } from './params.js';

export const reproject = defineAlgorithm({
  id: 'reproject',
  title: 'Reproject',
  description:
    'Transforms a vector layer to another CRS (e.g. a projected CRS in metres before measuring distances). ' +
    'Output: a new GeoPackage layer with the same features and attributes in target_crs.',
  params: z.object({
    input: layer,
    target_crs: epsgParam.describe("Target CRS, e.g. 'EPSG:32633'"),
  }),
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
  distanceParams: ['distance'],
});

/**
 * The vector algorithms of the catalogue: these two, and the families in their own files
 * (overlays of two layers, geometry changes and measures, attribute work).
 */
export const VECTOR_ALGORITHMS: readonly AlgorithmSpec[] = [
  reproject,
  buffer,
  ...GEOMETRY_ALGORITHMS,
  ...OVERLAY_ALGORITHMS,
  ...ATTRIBUTE_ALGORITHMS,
];

import { runAggregate, runDissolve } from './aggregate.js';
import { runBuffer } from './buffer.js';
import { runFieldCalculator } from './fieldCalculator.js';
import { runJoinByField } from './joinByField.js';
import { runAreaLength, runCentroids } from './measure.js';
import { runClip, runDifference, runIntersection, runUnion } from './overlay.js';
import { runReproject } from './reproject.js';
import { runSelectByAttribute, runSelectByLocation } from './selection.js';
import { runCountPointsInPolygons, runSpatialJoin } from './spatialJoin.js';
import { runConvertFormat, runSimplify } from './translate.js';
import type { AlgorithmRun } from './types.js';

/** Worker halves of the vector algorithms, by catalogue id. */
export const VECTOR_RUNS: Record<string, AlgorithmRun> = {
  reproject: runReproject,
  buffer: runBuffer,
  dissolve: runDissolve,
  centroids: runCentroids,
  simplify: runSimplify,
  convert_format: runConvertFormat,
  area_length: runAreaLength,
  clip: runClip,
  intersection: runIntersection,
  difference: runDifference,
  union: runUnion,
  select_by_location: runSelectByLocation,
  spatial_join: runSpatialJoin,
  count_points_in_polygons: runCountPointsInPolygons,
  select_by_attribute: runSelectByAttribute,
  field_calculator: runFieldCalculator,
  join_by_field: runJoinByField,
  aggregate: runAggregate,
};

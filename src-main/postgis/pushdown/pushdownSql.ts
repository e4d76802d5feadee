import { findAlgorithm } from '../../../src-shared/processing/catalogue.js';
import { clipPlan, countPointsPlan, differencePlan, intersectionPlan, selectByLocationPlan, spatialJoinPlan } from './pairPlans.js';
import type { InputInfo, Plan } from './plan.js';
import { aggregatePlan, areaLengthPlan, bufferPlan, dissolvePlan } from './singlePlans.js';
import { PushdownError } from './types.js';

/** The algorithms that can run inside PostGIS, by catalogue id, with their SQL builders. */
const PLANS: Record<string, (inputs: InputInfo[], params: Record<string, unknown>) => Plan> = {
  buffer: bufferPlan,
  dissolve: dissolvePlan,
  aggregate: aggregatePlan,
  area_length: areaLengthPlan,
  clip: clipPlan,
  difference: differencePlan,
  intersection: intersectionPlan,
  select_by_location: selectByLocationPlan,
  spatial_join: spatialJoinPlan,
  count_points_in_polygons: countPointsPlan,
};

export const PUSHDOWN_ALGORITHMS: readonly string[] = Object.keys(PLANS);

/** True when `algorithm` has a push-down form (the wiring falls back to the worker otherwise). */
export function canPushDown(algorithm: string): boolean {
  return Object.hasOwn(PLANS, algorithm);
}

/** How many tables the algorithm takes, in the order of its catalogue layerParams. */
export function layerParamsOf(algorithm: string): readonly string[] {
  const spec = findAlgorithm(algorithm);
  if (!spec || !canPushDown(algorithm)) throw new PushdownError('invalid_params', `${algorithm} cannot run inside PostGIS`);
  return spec.layerParams;
}

export function planFor(algorithm: string, inputs: InputInfo[], params: Record<string, unknown>): Plan {
  const build = PLANS[algorithm];
  if (!build) throw new PushdownError('invalid_params', `${algorithm} cannot run inside PostGIS`);
  return build(inputs, params);
}

import type { Layer } from '../../src-shared/domain/layer.js';
import { findAlgorithm } from '../../src-shared/processing/catalogue.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { planarMeasures, stringsIn, type PlanarMeasure } from './planarMeasures.js';

/** What a call's arguments say about its output: the layers it read, its distances, its measures. */
export interface CallFacts {
  inputs: Layer[];
  distances: { param: string; value: number }[];
  measures: PlanarMeasure[];
}

/**
 * A processing run names its inputs and distances through the catalogue (`layerParams`,
 * `distanceParams`); other tools (SQL saved as a layer, code, plugins) only through their
 * text, so for them the measures alone are read. `area_length` measures on the ellipsoid.
 */
export function callFacts(toolId: string, args: unknown, project: Pick<ProjectHandle, 'getLayer'>): CallFacts {
  const measures = planarMeasures(stringsIn(args).join('\n'));
  if (toolId !== 'processing.run') return { inputs: [], distances: [], measures };
  const { algorithm, params } = (args ?? {}) as { algorithm?: unknown; params?: Record<string, unknown> };
  const spec = typeof algorithm === 'string' ? findAlgorithm(algorithm) : undefined;
  if (!spec || !params) return { inputs: [], distances: [], measures };
  const inputs = spec.layerParams.flatMap((key) => {
    const value = params[key];
    const refs = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    return refs.flatMap((ref) => {
      const layer = typeof ref === 'string' ? project.getLayer(ref) : undefined;
      return layer ? [layer] : [];
    });
  });
  const distances = spec.distanceParams.flatMap((param) => {
    const value = params[param];
    return typeof value === 'number' && value !== 0 ? [{ param, value }] : [];
  });
  return { inputs, distances, measures: spec.id === 'area_length' ? [] : measures };
}

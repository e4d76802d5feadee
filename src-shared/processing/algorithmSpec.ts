import type { z } from 'zod';
import type { LayerKind } from '../domain/layer.js';

/**
 * One processing algorithm as the model and the dialog see it. The worker implements it under
 * the same id (src-main/gis-worker/algorithms/); a test keeps the two lists equal.
 */
export interface AlgorithmSpec<S extends z.ZodObject = z.ZodObject> {
  /** snake_case, unique: `buffer`, `reproject`, … */
  id: string;
  title: string;
  /** For the model: what it computes, what the output is, what to check first. */
  description: string;
  params: S;
  /**
   * Params naming a project layer (id or name); main resolves them to sources. A param may
   * also be an array of layers (mosaic, raster calculator) or optional (left out: skipped).
   */
  layerParams: readonly (keyof z.output<S> & string)[];
  /**
   * The kind of layer a layer param must name, checked before the approval dialog. Unset:
   * vector for a vector output, any kind for a raster output. A list allows several kinds
   * (['vector', 'table']: a plain table of attributes is accepted too, e.g. a join's table side).
   */
  layerKinds?: Partial<Record<keyof z.output<S> & string, LayerKind | readonly LayerKind[]>>;
  /**
   * Params measured in the input layer's CRS units. They are refused on a geographic CRS
   * (degrees are not a distance), with the reprojection to make first.
   */
  distanceParams: readonly (keyof z.output<S> & string)[];
  output: 'vector' | 'raster';
}

export function defineAlgorithm<S extends z.ZodObject>(spec: AlgorithmSpec<S>): AlgorithmSpec<S> {
  return spec;
}

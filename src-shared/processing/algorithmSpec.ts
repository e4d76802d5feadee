import type { z } from 'zod';
import type { LayerKind } from '../domain/layer.js';

type ParamKey<S extends z.ZodObject> = keyof z.output<S> & string;

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
  layerParams: readonly ParamKey<S>[];
  /**
   * The kind of layer a layer param must name, checked before the approval dialog. Unset:
   * vector for a vector output, any kind for a raster output. A list allows several kinds
   * (['vector', 'table']: a plain table of attributes is accepted too, e.g. a join's table side).
   */
  layerKinds?: Partial<Record<ParamKey<S>, LayerKind | readonly LayerKind[]>>;
  /**
   * Params measured in the input layer's CRS units. They are refused on a geographic CRS
   * (degrees are not a distance), with the reprojection to make first.
   */
  distanceParams: readonly ParamKey<S>[];
  output: 'vector' | 'raster';
}

/**
 * A spec as written in the catalogue: what the define function fills in may be left out.
 * `layerParams` may be left out only where its default names params the algorithm has.
 */
type SpecDraft<S extends z.ZodObject, DefaultLayers extends string> = Omit<AlgorithmSpec<S>, 'layerParams' | 'distanceParams' | 'output'> &
  Partial<Pick<AlgorithmSpec<S>, 'distanceParams' | 'output'>> &
  ([DefaultLayers] extends [ParamKey<S>]
    ? { layerParams?: AlgorithmSpec<S>['layerParams'] }
    : { layerParams: AlgorithmSpec<S>['layerParams'] });

interface Defaults {
  layerParams: readonly string[];
  output: AlgorithmSpec['output'];
  /** The kind of every layer param that `layerKinds` does not name; unset: none is set. */
  layerKind?: LayerKind | readonly LayerKind[];
}

function withDefaults<S extends z.ZodObject>(draft: SpecDraft<S, never>, defaults: Defaults): AlgorithmSpec<S> {
  const layerParams = (draft.layerParams ?? defaults.layerParams) as AlgorithmSpec<S>['layerParams'];
  const { layerKind } = defaults;
  const layerKinds =
    layerKind === undefined
      ? draft.layerKinds
      : ({ ...Object.fromEntries(layerParams.map((key) => [key, layerKind])), ...draft.layerKinds } as AlgorithmSpec<S>['layerKinds']);
  return {
    id: draft.id,
    title: draft.title,
    description: draft.description,
    params: draft.params,
    layerParams,
    ...(layerKinds ? { layerKinds } : {}),
    distanceParams: draft.distanceParams ?? [],
    output: draft.output ?? defaults.output,
  };
}

/** An algorithm of one vector layer, `input`, with a vector output and no distance params unless it says otherwise. */
export function defineAlgorithm<S extends z.ZodObject>(spec: SpecDraft<S, 'input'>): AlgorithmSpec<S> {
  return withDefaults(spec as SpecDraft<S, never>, { layerParams: ['input'], output: 'vector' });
}

/** As defineAlgorithm, over layers that may also be plain tables (every layer param takes a vector layer or a table). */
export function defineTableAlgorithm<S extends z.ZodObject>(spec: SpecDraft<S, 'input'>): AlgorithmSpec<S> {
  return withDefaults(spec as SpecDraft<S, never>, { layerParams: ['input'], output: 'vector', layerKind: ['vector', 'table'] });
}

/** An algorithm of two vector layers, `input` and `overlay`, with a vector output. */
export function defineOverlayAlgorithm<S extends z.ZodObject>(spec: SpecDraft<S, 'input' | 'overlay'>): AlgorithmSpec<S> {
  return withDefaults(spec as SpecDraft<S, never>, { layerParams: ['input', 'overlay'], output: 'vector' });
}

/**
 * An algorithm over rasters: its layer params (default: `input`) take raster layers unless
 * `layerKinds` says otherwise, and its output is a raster unless `output` says otherwise.
 */
export function defineRasterAlgorithm<S extends z.ZodObject>(spec: SpecDraft<S, 'input'>): AlgorithmSpec<S> {
  return withDefaults(spec as SpecDraft<S, never>, { layerParams: ['input'], output: 'raster', layerKind: 'raster' });
}

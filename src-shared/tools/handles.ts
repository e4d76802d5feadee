import type { BBox, Layer, LayerInfo } from '../domain/layer.js';
import type { MapSelection } from '../domain/mapSelection.js';
import type { LayerStyle } from '../style/styleModel.js';

/**
 * The capabilities a tool can ask for. A tool declares the handles it needs and receives
 * only those in its context, so it can be tested alone and cannot reach anything else.
 */
export interface ProjectHandle {
  listLayers(): Layer[];
  getLayer(idOrName: string): Layer | undefined;
  addLayer(input: { name: string; source: string; sublayer: string | null; info: LayerInfo; style?: LayerStyle }): Layer;
  removeLayer(id: string): void;
  updateLayer(id: string, patch: Partial<Pick<Layer, 'name' | 'visible' | 'opacity' | 'style'>>): Layer;
  moveLayer(id: string, toOrder: number): Layer[];
  /** A new, unused file path in the project's outputs folder (never a source file). */
  outputPath(baseName: string, extension: 'gpkg' | 'tif' | 'png'): string;
}

export interface AlgorithmRequest {
  algorithm: string;
  /** Params with layer references already resolved to sources. */
  params: Record<string, unknown>;
  /** `path|layername=NAME` for vector outputs, a path for rasters. */
  output: string;
}

export interface AlgorithmOutcome {
  output: string;
  featureCount: number | null;
  notes: string[];
  /** Structured facts for the model (join_by_field: unmatched and duplicated keys). */
  report?: Record<string, unknown>;
}

/** GDAL, reached only through the GIS worker process. */
export interface GdalHandle {
  /** Opens a source (`path` or `path|layername=NAME`) and describes it; throws ToolFailure on bad input. */
  describe(source: string): Promise<LayerInfo>;
  /**
   * Calls a named worker function (gis-worker/functions/); validate the result with your own
   * schema. Bad input comes back as a ToolFailure with a readable message.
   */
  call(fn: string, args: unknown, opts?: { signal?: AbortSignal; progress?(fraction: number, message: string): void }): Promise<unknown>;
  /** Runs a processing algorithm in the worker; progress and Stop are honoured. */
  runAlgorithm(req: AlgorithmRequest, opts: { signal: AbortSignal; progress(fraction: number, message: string): void }): Promise<AlgorithmOutcome>;
}

export interface MapViewState {
  center: [number, number];
  zoom: number;
  bounds: BBox;
  bearing: number;
  pitch: number;
}

/** The map in the renderer: view changes, and questions only the renderer can answer. */
export interface MapHandle {
  fitBounds(bbox: BBox): void;
  /** Asks the renderer; fails with a time-out when no window answers. */
  currentView(signal: AbortSignal): Promise<MapViewState>;
  /** A PNG of the map as shown, saved in the outputs folder. */
  screenshot(signal: AbortSignal): Promise<{ path: string; width: number; height: number }>;
  /** What the person has selected (map or attribute table): one layer's feature ids, or nothing. */
  selection(signal: AbortSignal): Promise<MapSelection>;
}

export interface Handles {
  project: ProjectHandle;
  gdal: GdalHandle;
  map: MapHandle;
}
export type HandleName = keyof Handles;
export const HANDLE_NAMES: readonly HandleName[] = ['project', 'gdal', 'map'];

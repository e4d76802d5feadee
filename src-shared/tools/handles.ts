import type { BBox, Layer, LayerInfo } from '../domain/layer.js';
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
}

/** GDAL, reached only through the GIS worker process. */
export interface GdalHandle {
  /** Opens a source (`path` or `path|layername=NAME`) and describes it; throws ToolFailure on bad input. */
  describe(source: string): Promise<LayerInfo>;
}

/** The map in the renderer: view changes only. */
export interface MapHandle {
  fitBounds(bbox: BBox): void;
}

export interface Handles {
  project: ProjectHandle;
  gdal: GdalHandle;
  map: MapHandle;
}
export type HandleName = keyof Handles;
export const HANDLE_NAMES: readonly HandleName[] = ['project', 'gdal', 'map'];

import type { Layer, LayerInfo, LayerKind } from '../src-shared/domain/layer.js';
import type { ProjectHandle } from '../src-shared/tools/handles.js';

/**
 * Fakes for tool tests that check what a tool refuses and what it hands the worker: a project
 * layer with plausible defaults for its kind (`info` overrides them), and a project handle
 * over a fixed list of layers.
 */
const WORLD: [number, number, number, number] = [-180, -90, 180, 83.6];
const WGS84 = { epsg: 4326, name: 'WGS 84', geographic: true };

export function fakeLayer(p: { name: string; id?: string; kind: LayerKind; source: string; sublayer?: string | null; fields?: string[]; info?: Partial<LayerInfo> }): Layer {
  const { kind } = p;
  return {
    id: p.id ?? p.name,
    name: p.name,
    source: p.source,
    sublayer: p.sublayer ?? null,
    kind,
    order: 0,
    visible: true,
    opacity: 1,
    style: (kind === 'raster' ? { type: 'grey' } : { type: 'simple' }) as Layer['style'],
    info: {
      kind,
      driver: kind === 'table' ? 'CSV' : kind === 'raster' ? 'GTiff' : 'GPKG',
      crs: kind === 'table' ? null : WGS84,
      extent: kind === 'table' ? null : WORLD,
      extent4326: kind === 'table' ? null : WORLD,
      geometryType: kind === 'vector' ? 'MultiPolygon' : null,
      featureCount: null,
      fields: (p.fields ?? []).map((f) => ({ name: f, type: 'string' })) as LayerInfo['fields'],
      width: null,
      height: null,
      bands: [],
      sublayers: [],
      ...p.info,
    },
  };
}

export function fakeProject(layers: readonly Layer[]): ProjectHandle {
  return {
    listLayers: () => [...layers],
    getLayer: (ref: string) => layers.find((l) => l.id === ref || l.name === ref),
    outputPath: (name: string, ext: string) => `/outputs/${name}.${ext}`,
  } as unknown as ProjectHandle;
}

import type { Annotation } from '../src-shared/domain/annotation.js';
import type { Layer, LayerInfo, LayerKind } from '../src-shared/domain/layer.js';
import { defaultRasterStyle, defaultVectorStyle } from '../src-shared/style/styleModel.js';
import { freeLayerName, type ProjectHandle } from '../src-shared/tools/handles.js';

/**
 * Fakes for tool tests that check what a tool refuses and what it hands the worker: a project
 * layer with plausible defaults for its kind (`info` overrides them), and a project handle
 * over a fixed list of layers (plus those a tool adds, named and styled as the real handle does).
 */
const WORLD: [number, number, number, number] = [-180, -90, 180, 83.6];
const WGS84 = { epsg: 4326, name: 'WGS 84', geographic: true };

export function fakeLayer(p: {
  name: string;
  id?: string;
  kind: LayerKind;
  source: string;
  sublayer?: string | null;
  fields?: string[];
  info?: Partial<LayerInfo>;
}): Layer {
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
  const added: Layer[] = [];
  const all = () => [...layers, ...added];
  const notHere = (what: string) => () => {
    throw new Error(`fakeProject does not ${what}`);
  };
  return {
    listLayers: all,
    getLayer: (ref: string) => all().find((l) => l.id === ref || l.name === ref),
    // As the real handle: the name is a wish made unique, the style defaults by kind.
    addLayer: ({ name, source, sublayer, info, style }) => {
      const before = all();
      const layer: Layer = {
        id: `added-${added.length + 1}`,
        name: freeLayerName(new Set(before.map((l) => l.name)), name),
        source,
        sublayer,
        kind: info.kind,
        order: before.length,
        visible: true,
        opacity: 1,
        style: style ?? (info.kind === 'raster' ? defaultRasterStyle() : defaultVectorStyle(before.length)),
        info,
      };
      added.push(layer);
      return layer;
    },
    removeLayer: notHere('remove layers'),
    updateLayer: notHere('update layers'),
    moveLayer: notHere('move layers'),
    relocateLayer: notHere('relocate layers'),
    outputPath: (name: string, ext: string) => `/outputs/${name}.${ext}`,
    editing: noEditing(),
    ...memoryAnnotations(),
  };
}

/** The editing part of a project handle for tests that do not edit: paths only, every change refused. */
export function noEditing(): ProjectHandle['editing'] {
  const refuse = (what: string) => () => {
    throw new Error(`This test does not ${what}`);
  };
  return {
    workingCopyPath: (name: string) => `/outputs/edits/${name}.gpkg`,
    backupDir: () => '/outputs/backups',
    startEditing: refuse('start editing'),
    dataChanged: refuse('record data changes'),
  };
}

/** The annotation methods of a project handle over an in-memory list (no kind checks: the store does those). */
export function memoryAnnotations(): Pick<ProjectHandle, 'listAnnotations' | 'addAnnotation' | 'moveAnnotation' | 'removeAnnotation'> {
  let list: Annotation[] = [];
  const find = (id: string) => {
    const found = list.find((a) => a.id === id);
    if (!found) throw new Error(`No annotation with id ${id}`);
    return found;
  };
  return {
    listAnnotations: () => list,
    addAnnotation: (input) => {
      const added: Annotation = { ...input, id: `note-${list.length + 1}`, order: list.length, createdAt: 'now' };
      list.push(added);
      return added;
    },
    moveAnnotation: (id, geometry) => Object.assign(find(id), { geometry }),
    removeAnnotation: (id) => {
      find(id);
      list = list.filter((a) => a.id !== id);
    },
  };
}

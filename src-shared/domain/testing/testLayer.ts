import type { Layer, LayerInfo } from '../layer.js';
import { defaultVectorStyle } from '../../style/styleModel.js';

/**
 * For tests: a project layer with plausible values, so a test names only what it is about. A
 * visible, opaque vector layer `L1` at the bottom of the stack, in a GeoPackage in WGS 84 with a
 * unit extent, three MultiPolygon features and no fields; `info` merges into those defaults.
 */
export function testLayer(over: Partial<Omit<Layer, 'info'>> & { info?: Partial<LayerInfo> } = {}): Layer {
  const { info, ...rest } = over;
  return {
    id: 'L1',
    name: 'layer',
    source: '/data/layer.gpkg',
    sublayer: null,
    kind: 'vector',
    order: 0,
    visible: true,
    opacity: 1,
    style: defaultVectorStyle(0),
    info: {
      kind: 'vector',
      driver: 'GPKG',
      crs: { epsg: 4326, name: 'WGS 84', geographic: true },
      extent: [0, 0, 1, 1],
      extent4326: [0, 0, 1, 1],
      geometryType: 'MultiPolygon',
      featureCount: 3,
      fields: [],
      width: null,
      height: null,
      bands: [],
      sublayers: [],
      ...info,
    },
    ...rest,
  };
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LayerInfo } from '../../src-shared/domain/layer.js';
import { defaultRasterStyle, defaultVectorStyle } from '../../src-shared/style/styleModel.js';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import { createProjectHandle } from './projectHandle.js';

const openProject = tempProjectStores('mapwright-handle-');

function fresh() {
  const { store } = openProject();
  const changes: number[] = [];
  const project = createProjectHandle(store, (name, payload) => {
    if (name === 'layers/changed') changes.push((payload as { layers: unknown[] }).layers.length);
  });
  return { store, project, changes };
}

const info = (kind: LayerInfo['kind']): LayerInfo => ({
  kind,
  driver: kind === 'raster' ? 'GTiff' : 'GPKG',
  crs: { epsg: 4326, name: 'WGS 84', geographic: true },
  extent: [0, 0, 1, 1],
  extent4326: [0, 0, 1, 1],
  geometryType: kind === 'vector' ? 'Point' : null,
  featureCount: kind === 'vector' ? 1 : null,
  fields: [],
  width: kind === 'raster' ? 10 : null,
  height: kind === 'raster' ? 10 : null,
  bands: [],
  sublayers: [],
});

describe('project handle: addLayer', () => {
  it('takes the name as a wish and makes it unique (name, name_2, name_3…)', () => {
    const { store, project, changes } = fresh();
    const names = ['roads', 'roads', 'roads', 'roads_2', 'rivers'].map(
      (name) => project.addLayer({ name, source: `/d/${name}.gpkg`, sublayer: null, info: info('vector') }).name,
    );
    assert.deepEqual(names, ['roads', 'roads_2', 'roads_3', 'roads_2_2', 'rivers']);
    assert.deepEqual(
      project.listLayers().map((l) => l.name),
      names,
    );
    assert.deepEqual(changes, [1, 2, 3, 4, 5], 'every addition is announced');
    store.close();
  });

  it('without a style picks the default of the kind (vector by the count of layers before it); a given style is kept', () => {
    const { store, project } = fresh();
    const a = project.addLayer({ name: 'a', source: '/d/a.gpkg', sublayer: 'a', info: info('vector') });
    const dem = project.addLayer({ name: 'dem', source: '/d/dem.tif', sublayer: null, info: info('raster') });
    const t = project.addLayer({ name: 't', source: '/d/t.csv', sublayer: null, info: info('table') });
    const b = project.addLayer({ name: 'b', source: '/d/b.gpkg', sublayer: null, info: info('vector') });
    const styled = project.addLayer({ name: 'c', source: '/d/c.gpkg', sublayer: null, info: info('vector'), style: defaultVectorStyle(7) });
    assert.deepEqual(a.style, defaultVectorStyle(0));
    assert.deepEqual(dem.style, defaultRasterStyle());
    assert.deepEqual(t.style, defaultVectorStyle(2), 'a table keeps a vector style');
    assert.deepEqual(b.style, defaultVectorStyle(3));
    assert.deepEqual(styled.style, defaultVectorStyle(7));
    assert.deepEqual([a.kind, dem.kind, t.kind, a.sublayer], ['vector', 'raster', 'table', 'a']);
    store.close();
  });
});

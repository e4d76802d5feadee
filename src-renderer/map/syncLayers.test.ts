import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';
import type { Layer } from '../../src-shared/domain/layer.js';
import { compileLayerStyle } from '../../src-shared/style/compileLayerStyle.js';
import { syncLayers, type AppliedLayers, type SyncTarget } from './syncLayers.js';

/** Behaves like MapLibre where it matters: refuses to drop a source that layers still use. */
class FakeMap implements SyncTarget {
  sources = new Map<string, SourceSpecification>();
  layers: LayerSpecification[] = [{ id: 'basemap-background', type: 'background' }];
  log: string[] = [];
  getLayer = (id: string) => this.layers.find((l) => l.id === id);
  getSource = (id: string) => this.sources.get(id);
  addSource(id: string, source: SourceSpecification) {
    assert.ok(!this.sources.has(id), `source ${id} added twice`);
    this.sources.set(id, source);
    this.log.push(`addSource ${id}`);
  }
  removeSource(id: string) {
    const users = this.layers.filter((l) => 'source' in l && l.source === id);
    assert.equal(users.length, 0, `source ${id} removed while used by ${users.map((l) => l.id)}`);
    this.sources.delete(id);
    this.log.push(`removeSource ${id}`);
  }
  addLayer(layer: LayerSpecification) {
    assert.ok(!this.getLayer(layer.id), `layer ${layer.id} added twice`);
    if ('source' in layer) assert.ok(this.sources.has(layer.source as string), 'layer before its source');
    this.layers.push(structuredClone(layer));
    this.log.push(`addLayer ${layer.id}`);
  }
  removeLayer(id: string) {
    this.layers = this.layers.filter((l) => l.id !== id);
    this.log.push(`removeLayer ${id}`);
  }
  moveLayer(id: string) {
    const layer = this.getLayer(id)!;
    this.layers = [...this.layers.filter((l) => l.id !== id), layer];
    this.log.push(`moveLayer ${id}`);
  }
  setPaintProperty(id: string, name: string, value: unknown) {
    this.log.push(`paint ${id} ${name}=${JSON.stringify(value)}`);
  }
  setLayoutProperty(id: string, name: string, value: unknown) {
    this.log.push(`layout ${id} ${name}=${JSON.stringify(value)}`);
  }
  getLayersOrder = () => this.layers.map((l) => l.id);
}

const urls = { data: (p: string) => `/${p}` };

function layer(id: string, order: number, over: Partial<Layer> = {}, geometryType = 'Polygon'): Layer {
  return {
    id,
    name: id,
    source: `/tmp/${id}.gpkg`,
    sublayer: null,
    kind: 'vector',
    order,
    visible: true,
    opacity: 1,
    style: { type: 'simple', fill: '#aa0000', stroke: '#000000', strokeWidth: 1, pointRadius: 4 },
    info: {
      kind: 'vector',
      driver: 'GPKG',
      crs: null,
      extent: null,
      extent4326: null,
      geometryType,
      featureCount: 1,
      fields: [],
      width: null,
      height: null,
      bands: [],
      sublayers: [],
    },
    ...over,
  };
}

function run(map: FakeMap, applied: AppliedLayers, layers: Layer[]) {
  map.log = [];
  const desired = [...layers].sort((a, b) => a.order - b.order).map((l) => ({ layerId: l.id, compiled: compileLayerStyle(l, urls) }));
  return syncLayers(map, applied, desired);
}

describe('syncLayers', () => {
  it('adds sources and layers above the basemap in order', () => {
    const map = new FakeMap();
    run(map, new Map(), [layer('b', 1, {}, 'Point'), layer('a', 0)]);
    assert.deepEqual(map.getLayersOrder(), ['basemap-background', 'layer-a-fill', 'layer-a-outline', 'layer-b-circle']);
  });

  it('changes opacity and visibility in place, without re-adding', () => {
    const map = new FakeMap();
    const applied = run(map, new Map(), [layer('a', 0)]);
    run(map, applied, [layer('a', 0, { opacity: 0.5, visible: false })]);
    assert.deepEqual(map.log.sort(), [
      'layout layer-a-fill visibility="none"',
      'layout layer-a-outline visibility="none"',
      'paint layer-a-fill fill-opacity=0.35',
      'paint layer-a-outline line-opacity=0.5',
    ]);
  });

  it('does nothing when nothing changed', () => {
    const map = new FakeMap();
    const applied = run(map, new Map(), [layer('a', 0), layer('b', 1)]);
    run(map, applied, [layer('a', 0), layer('b', 1)]);
    assert.deepEqual(map.log, []);
  });

  it('reorders by moving layers', () => {
    const map = new FakeMap();
    const applied = run(map, new Map(), [layer('a', 0), layer('b', 1, {}, 'LineString')]);
    run(map, applied, [layer('a', 1), layer('b', 0, {}, 'LineString')]);
    assert.deepEqual(map.getLayersOrder(), ['basemap-background', 'layer-b-line', 'layer-a-fill', 'layer-a-outline']);
  });

  it('removes layers before their source', () => {
    const map = new FakeMap();
    const applied = run(map, new Map(), [layer('a', 0), layer('b', 1)]);
    const next = run(map, applied, [layer('b', 0)]);
    assert.deepEqual(map.log.slice(0, 3), ['removeLayer layer-a-fill', 'removeLayer layer-a-outline', 'removeSource src-a']);
    assert.deepEqual([...next.keys()], ['b']);
    assert.equal(map.sources.has('src-a'), false);
  });

  it('rebuilds a layer whose geometry kind changed', () => {
    const map = new FakeMap();
    const applied = run(map, new Map(), [layer('a', 0)]);
    run(map, applied, [layer('a', 0, {}, 'Point')]);
    assert.deepEqual(map.getLayersOrder(), ['basemap-background', 'layer-a-circle']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../domain/layer.js';
import { testLayer } from '../domain/testing/testLayer.js';
import { compileLayerStyle } from './compileLayerStyle.js';
import { activeTerrain, compileTerrain } from './compileTerrain.js';
import { legendFor } from './legend.js';
import type { RasterStyle } from './styleModel.js';

const urls = { data: (path: string) => `http://h/${path}` };
const grey: RasterStyle = { type: 'grey', band: 1, min: null, max: null };
const terrain = { exaggeration: 2, hillshade: true, pitch: 60 };

function dem(id: string, style: RasterStyle, over: Partial<Layer> = {}): Layer {
  return testLayer({
    id,
    name: id,
    kind: 'raster',
    style,
    ...over,
    info: { kind: 'raster', geometryType: null, extent4326: [5.7, 49.4, 6.5, 50.2] },
  });
}

describe('compileTerrain: a DEM layer’s terrain', () => {
  it('is a Terrarium raster-dem source, a hillshade layer when asked, and the setTerrain options', () => {
    const compiled = compileTerrain(dem('E1', { ...grey, terrain }), urls)!;
    assert.deepEqual(compiled.source, {
      type: 'raster-dem',
      tiles: ['http://h/tiles/E1/dem/{z}/{x}/{y}.png'],
      tileSize: 256,
      encoding: 'terrarium',
      maxzoom: 14,
      bounds: [5.7, 49.4, 6.5, 50.2],
    });
    assert.deepEqual(
      compiled.layers.map((l) => [l.id, l.type]),
      [['layer-E1-hillshade', 'hillshade']],
    );
    assert.deepEqual(compiled.terrain, { source: 'src-E1-dem', exaggeration: 2 });
    assert.equal(compiled.pitch, 60);
    assert.deepEqual(compileTerrain(dem('E1', { ...grey, terrain: { ...terrain, hillshade: false } }), urls)!.layers, []);
    assert.equal(compileTerrain(dem('E1', grey), urls), null);
  });

  it('the map shows the topmost visible one', () => {
    const a = dem('A', { ...grey, terrain });
    const b = dem('B', { ...grey, terrain: { ...terrain, exaggeration: 5 } });
    assert.equal(activeTerrain([a, b], urls)!.sourceId, 'src-B-dem');
    assert.equal(activeTerrain([a, { ...b, visible: false }], urls)!.sourceId, 'src-A-dem');
    assert.equal(activeTerrain([dem('C', grey)], urls), null);
  });

  it('switching the terrain keeps the colour tiles’ URL; the legend says it is on', () => {
    const flat = compileLayerStyle(dem('E1', grey), urls).source;
    const raised = dem('E1', { ...grey, terrain });
    assert.deepEqual(compileLayerStyle(raised, urls).source, flat);
    assert.deepEqual(legendFor(raised).entries.at(-1), {
      kind: 'note',
      text: '3D terrain, heights × 2',
      message: { key: 'terrain', exaggeration: '2' },
    });
  });
});

describe('extrude style', () => {
  const style = { type: 'extrude', field: 'BIR74', scale: 2, fill: '#3366cc', stroke: '#222222', strokeWidth: 1, pointRadius: 5 } as const;

  it('draws polygons as one fill-extrusion layer, height = field × scale', () => {
    const layers = compileLayerStyle(testLayer({ id: 'P', style }), urls).layers;
    assert.deepEqual(layers, [
      {
        id: 'layer-P-extrusion',
        type: 'fill-extrusion',
        source: 'src-P',
        layout: { visibility: 'visible' },
        paint: {
          'fill-extrusion-color': '#3366cc',
          'fill-extrusion-height': ['*', ['to-number', ['get', 'BIR74'], 0], 2],
          'fill-extrusion-base': 0,
          'fill-extrusion-opacity': 0.9,
        },
      },
    ]);
  });

  it('the legend gives the colour and how the height is made', () => {
    const legend = legendFor(testLayer({ name: 'nc', style }));
    assert.deepEqual(legend.entries, [
      { kind: 'swatches', title: null, symbol: 'fill', items: [{ colour: '#3366cc', stroke: '#222222', label: 'nc' }] },
      { kind: 'note', text: '3D: height = BIR74 × 2 m', message: { key: 'extrude', field: 'BIR74', scale: '2' } },
    ]);
  });
});

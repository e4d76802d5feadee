import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { compileLabelPoints, compileLayerStyle } from '../../src-shared/style/compileLayerStyle.js';
import { TILED_ABOVE_FEATURES } from '../../src-shared/style/vectorTiles.js';
import { DATA_ROUTES, EMPTY_TILE } from './dataRoutes.js';

describe('data routes', () => {
  it('answers tiles outside a raster with a fully transparent PNG', () => {
    const png = PNG.sync.read(EMPTY_TILE);
    assert.deepEqual([...png.data], [0, 0, 0, 0]);
  });

  it("accept every data URL the style compiler makes, an edited layer's revision included", () => {
    const urls = { data: (path: string) => path };
    const editing = { originalSource: '/data/a.shp', originalSublayer: null, revision: 12 };
    const style = {
      type: 'simple',
      fill: '#336699',
      stroke: '#111111',
      strokeWidth: 1,
      pointRadius: 4,
      labels: { text: '{NAME}', size: 12, colour: '#000000', haloColour: '#ffffff', haloWidth: 1, placement: 'point', minZoom: 0 },
    } as const;
    for (const over of [{}, { editing }]) {
      const small = testLayer({ id: 'L_9-x', style, ...over });
      const geojson = (compileLayerStyle(small, urls).source as { data: string }).data;
      assert.equal(DATA_ROUTES.geojson.exec(geojson)?.[1], 'L_9-x', geojson);
      const labels = (compileLabelPoints(small, urls)!.source as { data: string }).data;
      assert.equal(DATA_ROUTES.labelPoints.exec(labels)?.[1], 'L_9-x', labels);
      const big = testLayer({ id: 'L_9-x', ...over, info: { featureCount: TILED_ABOVE_FEATURES + 1 } });
      const tile = (compileLayerStyle(big, urls).source as { tiles: string[] }).tiles[0]!.replace('{z}/{x}/{y}', '6/17/25');
      assert.deepEqual(DATA_ROUTES.vectorTile.exec(tile)?.slice(1), ['L_9-x', '6', '17', '25'], tile);
    }
  });

  it('refuse what only looks like a revision', () => {
    for (const path of [
      'data/layers/L1.r.geojson',
      'data/layers/L1.rx.geojson',
      'data/layers/L1.r1.r2.geojson',
      'data/layers/../L1.geojson',
    ])
      assert.equal(DATA_ROUTES.geojson.exec(path), null, path);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { boxSelectionTarget, groupHits, projectLayerOf, queryLayerIds } from './mapHits.js';

const f = (layer: string, id: number | string | undefined) => ({ id, layer: { id: layer } });
const order = ['background', 'layer-A-fill', 'layer-A-outline', 'layer-B-line', 'layer-B:labels-label', 'mapwright-selection-fill'];

describe('mapHits', () => {
  it('reads the project layer from the map layer id (ids may contain dashes)', () => {
    assert.equal(projectLayerOf('layer-3f2a-91-fill'), '3f2a-91');
    assert.equal(projectLayerOf('layer-A-circle'), 'A');
    assert.equal(projectLayerOf('layer-A-label'), null);
    assert.equal(projectLayerOf('mapwright-selection-fill'), null);
    assert.equal(projectLayerOf('water'), null);
  });

  it('groups fids per layer, topmost layer first, each fid once', () => {
    const hits = groupHits(
      [f('layer-A-fill', 4), f('layer-B-line', 9), f('layer-A-fill', 4), f('layer-A-fill', 2), f('layer-B-line', 'x')],
      order,
      new Set(['A', 'B']),
    );
    assert.deepEqual(hits, [
      { layerId: 'B', fids: [9] },
      { layerId: 'A', fids: [4, 2] },
    ]);
  });

  it('ignores layers that are not in the project and features without a fid', () => {
    assert.deepEqual(groupHits([f('layer-C-fill', 1), f('layer-A-fill', undefined), f('layer-A-fill', 1.5)], order, new Set(['A'])), []);
  });

  it('queries visible vector layers only, parts that exist on the map', () => {
    const layer = (id: string, kind: Layer['kind'], visible = true) => ({ id, kind, visible }) as Layer;
    const onMap = new Set(['layer-A-fill', 'layer-A-outline', 'layer-B-line', 'layer-D-fill']);
    const ids = queryLayerIds([layer('A', 'vector'), layer('B', 'vector'), layer('C', 'raster'), layer('D', 'vector', false)], (id) =>
      onMap.has(id),
    );
    assert.deepEqual(ids, { point: ['layer-A-fill', 'layer-B-line'], near: ['layer-B-line'] });
  });

  it('box selection prefers the table’s layer, then the selected one, then the topmost', () => {
    const hits = [
      { layerId: 'B', fids: [1] },
      { layerId: 'A', fids: [2, 3] },
    ];
    assert.equal(boxSelectionTarget(hits, ['A', 'B'])?.layerId, 'A');
    assert.equal(boxSelectionTarget(hits, [null, 'Z'])?.layerId, 'B');
    assert.equal(boxSelectionTarget([], ['A']), null);
  });
});

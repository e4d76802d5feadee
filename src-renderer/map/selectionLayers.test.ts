import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ensureSelectionLayers,
  raiseSelectionLayers,
  SELECTION_LAYERS,
  SELECTION_SOURCE,
  type HighlightTarget,
} from './selectionLayers.js';

function fakeMap(order: string[]): HighlightTarget & { order: string[]; sources: Set<string>; moves: number } {
  const map = {
    order,
    sources: new Set<string>(),
    moves: 0,
    getSource: (id: string) => (map.sources.has(id) ? {} : undefined),
    addSource: (id: string) => map.sources.add(id),
    getLayer: (id: string) => (map.order.includes(id) ? {} : undefined),
    addLayer: (layer: { id: string }) => map.order.push(layer.id),
    moveLayer: (id: string) => {
      map.moves += 1;
      map.order = [...map.order.filter((l) => l !== id), id];
    },
    getLayersOrder: () => map.order,
  };
  return map;
}

describe('selection layers', () => {
  it('are added once, on top, and put back on top after the layer sync moved project layers above', () => {
    const map = fakeMap(['background', 'layer-A-fill']);
    ensureSelectionLayers(map);
    ensureSelectionLayers(map);
    assert.ok(map.sources.has(SELECTION_SOURCE));
    const ids = SELECTION_LAYERS.map((l) => l.id);
    assert.deepEqual(map.order.slice(2), ids);
    raiseSelectionLayers(map);
    assert.equal(map.moves, 0, 'already on top: nothing moves');
    map.order = ['background', ...ids, 'layer-A-fill', 'layer-A-label'];
    raiseSelectionLayers(map);
    assert.deepEqual(map.order, ['background', 'layer-A-fill', 'layer-A-label', ...ids]);
  });
});

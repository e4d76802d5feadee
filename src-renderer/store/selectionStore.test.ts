import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSelectionStore, pruneSelection } from './selectionStore.js';

describe('selectionStore', () => {
  it('selects, toggles and adds within one layer', () => {
    const store = createSelectionStore();
    const s = () => store.getState();
    s().select('A', [1, 2], 'table', 2);
    assert.deepEqual([...s().fids], [1, 2]);
    assert.equal(s().anchor, 2);
    s().toggle('A', 2, 'table');
    s().toggle('A', 7, 'map');
    assert.deepEqual([...s().fids].sort(), [1, 7]);
    assert.equal(s().origin, 'map');
    s().add('A', [9], 'map');
    assert.deepEqual([...s().fids].sort(), [1, 7, 9]);
  });

  it('replaces the selection when another layer is picked', () => {
    const store = createSelectionStore();
    store.getState().select('A', [1, 2], 'table');
    store.getState().toggle('B', 5, 'map');
    assert.equal(store.getState().layerId, 'B');
    assert.deepEqual([...store.getState().fids], [5]);
  });

  it('an empty selection has no layer; toggling the last one off empties it', () => {
    const store = createSelectionStore();
    store.getState().toggle('A', 3, 'table');
    store.getState().toggle('A', 3, 'table');
    assert.equal(store.getState().layerId, null);
    store.getState().select('A', [], 'map');
    assert.equal(store.getState().layerId, null);
  });

  it('clears when the layer is removed from the project', () => {
    const store = createSelectionStore();
    store.getState().select('A', [1], 'map');
    pruneSelection(store, new Set(['A', 'B']));
    assert.equal(store.getState().fids.size, 1);
    pruneSelection(store, new Set(['B']));
    assert.equal(store.getState().layerId, null);
    assert.equal(store.getState().fids.size, 0);
  });
});

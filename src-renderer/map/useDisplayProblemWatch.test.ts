import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useDisplayProblems } from '../store/displayProblemsStore.js';
import { layerIdOfSource, problemText } from './useDisplayProblemWatch.js';

describe('display problems: a layer that cannot be drawn says why', () => {
  it("maps the app's sources (and their label sources) to layer ids, nothing else", () => {
    assert.equal(layerIdOfSource('src-0f3c-aa'), '0f3c-aa');
    assert.equal(layerIdOfSource('src-0f3c-aa-labels'), '0f3c-aa');
    assert.equal(layerIdOfSource('basemap'), null);
    assert.equal(layerIdOfSource(undefined), null);
  });

  it('words HTTP failures for a person', () => {
    assert.match(problemText({ status: 404 }), /not found/);
    assert.match(problemText({ status: 500 }), /HTTP 500/);
    assert.match(problemText(new Error('x')), /could not be loaded/);
  });

  it('keeps one message per layer and clears it', () => {
    const s = useDisplayProblems.getState();
    s.report('a', 'broken');
    s.report('b', 'also');
    assert.deepEqual(useDisplayProblems.getState().byLayer, { a: 'broken', b: 'also' });
    s.clear('a');
    assert.deepEqual(useDisplayProblems.getState().byLayer, { b: 'also' });
  });
});

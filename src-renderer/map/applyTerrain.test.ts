import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompiledTerrain } from '../../src-shared/style/compileTerrain.js';
import { applyTerrain, type TerrainTarget } from './applyTerrain.js';

function fakeMap(sources: string[]) {
  const calls: unknown[][] = [];
  let pitch = 0;
  let maxPitch = 60;
  const map: TerrainTarget = {
    getMaxPitch: () => maxPitch,
    setMaxPitch: (p) => {
      maxPitch = p;
      calls.push(['setMaxPitch', p]);
    },
    getSource: (id) => (sources.includes(id) ? {} : undefined),
    setTerrain: (t) => calls.push(['setTerrain', t]),
    getPitch: () => pitch,
    easeTo: (o) => {
      pitch = o.pitch;
      calls.push(['easeTo', o.pitch]);
    },
  };
  return { map, calls };
}

const wanted = (exaggeration = 2, pitch = 60) =>
  ({ sourceId: 'src-E-dem', terrain: { source: 'src-E-dem', exaggeration }, pitch }) as unknown as CompiledTerrain;

describe('applyTerrain', () => {
  it('sets the terrain and tilts once; a new exaggeration keeps the person’s tilt; off levels the view', () => {
    const { map, calls } = fakeMap(['src-E-dem']);
    let applied = applyTerrain(map, null, wanted());
    assert.deepEqual(calls.splice(0), [
      ['setTerrain', { source: 'src-E-dem', exaggeration: 2 }],
      ['easeTo', 60],
    ]);
    assert.equal(applyTerrain(map, applied, wanted()), applied, 'nothing changed: nothing applied');
    assert.deepEqual(calls.splice(0), []);
    applied = applyTerrain(map, applied, wanted(4));
    assert.deepEqual(calls.splice(0), [['setTerrain', { source: 'src-E-dem', exaggeration: 4 }]]);
    assert.equal(applyTerrain(map, applied, null), null);
    assert.deepEqual(calls.splice(0), [
      ['setTerrain', null],
      ['easeTo', 0],
    ]);
  });

  it('without its source on the map (it failed to apply) the terrain stays off', () => {
    const { map, calls } = fakeMap([]);
    assert.equal(applyTerrain(map, null, wanted()), null);
    assert.deepEqual(calls, [['setTerrain', null]]);
  });

  it('a tilt past MapLibre’s default 60° raises the map’s limit first', () => {
    const { map, calls } = fakeMap(['src-E-dem']);
    applyTerrain(map, null, wanted(2, 75));
    assert.deepEqual(calls, [
      ['setTerrain', { source: 'src-E-dem', exaggeration: 2 }],
      ['setMaxPitch', 75],
      ['easeTo', 75],
    ]);
  });
});

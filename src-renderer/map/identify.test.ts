import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { RendererBridge } from '../bridge/bridgeTypes.js';
import { identifyHits, MAX_IDENTIFIED_PER_LAYER } from './identify.js';

const layers = [
  { id: 'A', name: 'counties' },
  { id: 'B', name: 'roads' },
] as Layer[];

describe('identifyHits', () => {
  it('asks for each layer’s features, keeps the topmost first, and names the layer', async () => {
    const asked: unknown[] = [];
    const bridge = {
      call: async (_method: string, params: { layerId: string; fids: number[] }) => {
        asked.push(params);
        if (params.layerId === 'B') throw new Error('no such layer');
        // main may answer in its own order
        return {
          features: [...params.fids].reverse().map((id) => ({ type: 'Feature', id, geometry: null, properties: { id } })),
          bbox: null,
        };
      },
    } as unknown as Pick<RendererBridge, 'call'>;
    const sections = await identifyHits(
      bridge,
      [
        { layerId: 'A', fids: [7, 3, 1, 2, 4, 5, 6] },
        { layerId: 'B', fids: [1] },
      ],
      layers,
    );
    assert.deepEqual(asked[0], { layerId: 'A', fids: [7, 3, 1, 2, 4].slice(0, MAX_IDENTIFIED_PER_LAYER) });
    assert.equal(sections[0]!.layerName, 'counties');
    assert.deepEqual(
      sections[0]!.features.map((f) => f.id),
      [7, 3, 1, 2, 4],
    );
    assert.equal(sections[0]!.more, 2);
    assert.equal(sections[1]!.layerName, 'roads');
    assert.match(sections[1]!.error ?? '', /no such layer/);
  });
});

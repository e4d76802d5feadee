import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Handles } from '../../src-shared/tools/handles.js';
import { fakeLayer, fakeProject } from '../toolTestFakes.js';
import { layerTools } from './index.js';

describe('layers family: the notice face of layers.load', () => {
  const notice = layerTools.find((t) => t.id === 'layers.load')!.notice!;
  it('names the loaded layer with its kind, feature count and CRS', () => {
    assert.equal(
      notice({ layer: { name: 'nc', kind: 'vector', feature_count: 1234, crs: 'EPSG:4267' } }),
      'Loaded layer nc (vector, 1,234 features, EPSG:4267)',
    );
    assert.equal(notice({ layer: { name: 'dem', kind: 'raster', feature_count: null, crs: null } }), 'Loaded layer dem (raster)');
    assert.equal(notice({ layer: { name: 't', kind: 'table', feature_count: 5, crs: null } }), 'Loaded layer t (table)');
  });
  it('says nothing for a load of several layers or an odd payload', () => {
    assert.equal(notice({ layers: [{ name: 'a' }, { name: 'b' }] }), null);
    assert.equal(notice(null), null);
  });
  it('no other tool of the family announces itself (but an export to PostGIS, which writes to a server)', () => {
    assert.deepEqual(
      layerTools.filter((t) => t.notice).map((t) => t.id),
      ['layers.load', 'layers.export_postgis'],
    );
  });
});

describe('layers.zoom_to', () => {
  const tool = layerTools.find((t) => t.id === 'layers.zoom_to')!;
  const nc = fakeLayer({ id: 'L1', name: 'nc', kind: 'vector', source: '/data/nc.gpkg', info: { extent4326: [-84.3, 33.9, -75.5, 36.6] } });
  const run = (fitBounds: Handles['map']['fitBounds']) =>
    tool.execute(tool.input.parse({ layer: 'nc' }), {
      handles: { project: fakeProject([nc]), map: { fitBounds } } as unknown as Handles,
      caller: 'model',
      signal: new AbortController().signal,
      progress: () => undefined,
    });

  it('returns once the map has settled, with the view it reached', async () => {
    const view = { center: [-79.9, 35.3], zoom: 6.1, bounds: [-85, 33, -75, 37], bearing: 0, pitch: 0 } as const;
    let settled = false;
    const out = run(async (bbox) => {
      assert.deepEqual(bbox, [-84.3, 33.9, -75.5, 36.6]);
      await new Promise((r) => setTimeout(r, 20));
      settled = true;
      return view as never;
    });
    assert.deepEqual(await out, { zoomed_to: [-84.3, 33.9, -75.5, 36.6], view });
    assert.equal(settled, true);
  });

  it('without a map window: the extent zoomed to and no view', async () => {
    assert.deepEqual(await run(async () => null), { zoomed_to: [-84.3, 33.9, -75.5, 36.6], view: null });
  });
});

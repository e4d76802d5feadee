import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

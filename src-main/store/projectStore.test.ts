import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { LayerInfo } from '../../src-shared/domain/layer.js';
import { defaultVectorStyle } from '../../src-shared/style/styleModel.js';
import { ProjectStore } from './projectStore.js';
import { tempHomes } from './testing/tempHomes.js';

const freshHome = tempHomes('mapwright-store-');

const info: LayerInfo = {
  kind: 'vector',
  driver: 'GPKG',
  crs: { epsg: 4326, name: 'WGS 84', geographic: true },
  extent: [-10, -5, 10, 5],
  extent4326: [-10, -5, 10, 5],
  geometryType: 'Polygon',
  featureCount: 3,
  fields: [{ name: 'name', type: 'string' }],
  width: null,
  height: null,
  bands: [],
  sublayers: [],
};

function addLayer(store: ProjectStore, name: string) {
  return store.layers.add({ name, source: `/data/${name}.gpkg`, sublayer: null, kind: 'vector', style: defaultVectorStyle(0), info });
}

describe('ProjectStore', () => {
  it('keeps layers, their order and edits across a reopen', () => {
    const home = freshHome();
    const store = ProjectStore.openInHome(home);
    const a = addLayer(store, 'a');
    const b = addLayer(store, 'b');
    const c = addLayer(store, 'c');
    store.layers.update(b.id, { opacity: 0.25, visible: false });
    store.layers.move(c.id, 0);
    store.layers.remove(a.id);
    store.close();

    const reopened = ProjectStore.openInHome(home);
    const layers = reopened.layers.list();
    assert.deepEqual(
      layers.map((l) => [l.name, l.order, l.visible, l.opacity]),
      [
        ['c', 0, true, 1],
        ['b', 1, false, 0.25],
      ],
    );
    reopened.close();
    const raw = new Database(join(home, 'projects', 'untitled.mapwright'), { readonly: true });
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
    raw.close();
  });

  it('writes a conversation only with its first message and keeps message order on update', () => {
    const home = freshHome();
    const store = ProjectStore.openInHome(home);
    const cid = store.conversationId;
    assert.equal(store.conversations.latestId(), null, 'no conversation row before a message');
    store.conversations.upsert(cid, { id: 'm1', role: 'user', text: 'load rivers' });
    store.conversations.upsert(cid, { id: 'm2', role: 'assistant', text: '' });
    store.conversations.upsert(cid, { id: 'm3', role: 'notice', text: 'Loaded', level: 'info' });
    store.conversations.upsert(cid, { id: 'm2', role: 'assistant', text: 'Loading it now.' });
    store.close();

    const reopened = ProjectStore.openInHome(home);
    assert.equal(reopened.conversationId, cid);
    const messages = reopened.conversations.messages(cid);
    assert.deepEqual(
      messages.map((m) => [m.id, m.seq, m.text]),
      [
        ['m1', 0, 'load rivers'],
        ['m2', 1, 'Loading it now.'],
        ['m3', 2, 'Loaded'],
      ],
    );
    reopened.close();
  });
});

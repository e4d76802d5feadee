import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectStore } from './projectStore.js';
import { tempHomes } from './testing/tempHomes.js';

const freshHome = tempHomes('mapwright-origins-');

describe('NetworkOriginRepo: origins approved for map sources, per project', () => {
  it('grants, lists, checks and revokes origins in one spelling, kept across a reopen', () => {
    const home = freshHome();
    let store = ProjectStore.openInHome(home);
    assert.deepEqual(store.networkOrigins.list(), []);
    store.networkOrigins.grant('https://Tiles.Example.org');
    store.networkOrigins.grant('https://tiles.example.org:443/ignored/path');
    store.networkOrigins.grant('http://127.0.0.1:8080');
    assert.deepEqual(store.networkOrigins.list().sort(), ['http://127.0.0.1:8080', 'https://tiles.example.org:443']);
    assert.ok(store.networkOrigins.has('https://tiles.example.org/'));
    assert.ok(!store.networkOrigins.has('http://tiles.example.org'), 'another scheme is another origin');
    assert.ok(!store.networkOrigins.has('https://tiles.example.org:8443'), 'another port is another origin');
    store.close();
    store = ProjectStore.openInHome(home);
    assert.ok(store.networkOrigins.revoke('http://127.0.0.1:8080'));
    assert.ok(!store.networkOrigins.revoke('http://127.0.0.1:8080'));
    assert.deepEqual(store.networkOrigins.list(), ['https://tiles.example.org:443']);
    store.close();
  });

  it('refuses what is not an http(s) origin', () => {
    const store = ProjectStore.openInHome(freshHome());
    for (const bad of ['file:///etc', 'ftp://example.org', 'not a url', '']) assert.throws(() => store.networkOrigins.grant(bad), bad);
    assert.ok(!store.networkOrigins.has('file:///etc'));
    store.close();
  });
});

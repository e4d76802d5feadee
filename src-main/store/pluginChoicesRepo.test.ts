import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectStore } from './projectStore.js';
import { tempHomes } from './testing/tempHomes.js';

const freshHome = tempHomes('mapwright-choices-');

describe('PluginChoicesRepo: the person’s plugin choices, per project', () => {
  it('switches namespaces off and on, idempotently, and keeps them across a reopen', () => {
    const home = freshHome();
    let store = ProjectStore.openInHome(home);
    assert.deepEqual([...store.pluginChoices.disabledNamespaces()], []);
    store.pluginChoices.setEnabled('stamp', false);
    store.pluginChoices.setEnabled('stamp', false);
    store.pluginChoices.setEnabled('hello', false);
    store.pluginChoices.setEnabled('hello', true);
    store.pluginChoices.setEnabled('never_off', true);
    assert.deepEqual([...store.pluginChoices.disabledNamespaces()], ['stamp']);
    store.close();
    store = ProjectStore.openInHome(home);
    assert.deepEqual([...store.pluginChoices.disabledNamespaces()], ['stamp']);
    store.close();
  });

  it('marks a tool read-only per version, unmarks it, and keeps the marks across a reopen', () => {
    const home = freshHome();
    let store = ProjectStore.openInHome(home);
    assert.equal(store.pluginChoices.readOnlyMarks().size, 0);
    store.pluginChoices.markReadOnly('gis.lookup', '1.0.0', true);
    store.pluginChoices.markReadOnly('gis.lookup', '1.0.0', true);
    store.pluginChoices.markReadOnly('gis.lookup', '2.0.0', true);
    store.pluginChoices.markReadOnly('gis.other', '1.0.0', true);
    store.pluginChoices.markReadOnly('gis.other', '1.0.0', false);
    store.pluginChoices.markReadOnly('gis.never', '1.0.0', false);
    assert.deepEqual([...store.pluginChoices.readOnlyMarks()].sort(), ['gis.lookup@1.0.0', 'gis.lookup@2.0.0']);
    store.close();
    store = ProjectStore.openInHome(home);
    assert.deepEqual([...store.pluginChoices.readOnlyMarks()].sort(), ['gis.lookup@1.0.0', 'gis.lookup@2.0.0']);
    store.close();
  });

  it('grants an origin approval once per tool definition and lists them', () => {
    const home = freshHome();
    let store = ProjectStore.openInHome(home);
    assert.equal(store.pluginChoices.hasGrant('web.fetch', 'hash-1'), false);
    store.pluginChoices.grant('web.fetch', 'hash-1', new Date('2026-01-01T00:00:00Z'));
    store.pluginChoices.grant('web.fetch', 'hash-1', new Date('2026-02-01T00:00:00Z'));
    store.pluginChoices.grant('web.fetch', 'hash-2', new Date('2026-03-01T00:00:00Z'));
    assert.equal(store.pluginChoices.hasGrant('web.fetch', 'hash-1'), true);
    assert.equal(store.pluginChoices.hasGrant('web.fetch', 'hash-3'), false, 'a new definition (a new version) asks again');
    assert.equal(store.pluginChoices.hasGrant('web.other', 'hash-1'), false);
    store.close();
    store = ProjectStore.openInHome(home);
    assert.deepEqual(store.pluginChoices.grants(), [
      { toolId: 'web.fetch', definitionHash: 'hash-1', grantedAt: '2026-01-01T00:00:00.000Z' },
      { toolId: 'web.fetch', definitionHash: 'hash-2', grantedAt: '2026-03-01T00:00:00.000Z' },
    ]);
    store.close();
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectStore } from '../store/projectStore.js';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import { PluginChoices, type PluginChoiceChange } from './pluginChoices.js';

const newStore = tempProjectStores('mapwright-plugin-choices-');

describe('PluginChoices: what the plugin host consults', () => {
  it('starts from the project’s saved choices', () => {
    const { store } = newStore();
    store.pluginChoices.setEnabled('stamp', false);
    store.pluginChoices.markReadOnly('gis.lookup', '1.0.0', true);
    const choices = new PluginChoices(store.pluginChoices);
    assert.equal(choices.isEnabled('stamp'), false);
    assert.equal(choices.isEnabled('hello'), true);
    assert.equal(choices.readOnlyMarked('gis.lookup', '1.0.0'), true);
    assert.equal(choices.readOnlyMarked('gis.lookup', '2.0.0'), false, 'a mark is per version');
    store.close();
  });

  it('writes through, tells its listeners each real change once, and stays quiet on no-ops', () => {
    const { home, store } = newStore();
    const heard: PluginChoiceChange[] = [];
    const later: PluginChoiceChange[] = [];
    const choices = new PluginChoices(store.pluginChoices, (c) => heard.push(c));
    const stop = choices.onChange((c) => later.push(c));

    assert.equal(choices.setEnabled('stamp', true), false, 'already on');
    assert.equal(choices.setEnabled('stamp', false), true);
    assert.equal(choices.setEnabled('stamp', false), false);
    assert.equal(choices.isEnabled('stamp'), false);
    assert.equal(choices.markReadOnly('gis.lookup', '1.0.0', true), true);
    assert.equal(choices.markReadOnly('gis.lookup', '1.0.0', true), false);
    stop();
    assert.equal(choices.markReadOnly('gis.lookup', '1.0.0', false), true);
    assert.equal(choices.setEnabled('stamp', true), true);

    assert.deepEqual(heard, [
      { kind: 'enabled', namespace: 'stamp', enabled: false },
      { kind: 'read-only', toolId: 'gis.lookup', version: '1.0.0', readOnly: true },
      { kind: 'read-only', toolId: 'gis.lookup', version: '1.0.0', readOnly: false },
      { kind: 'enabled', namespace: 'stamp', enabled: true },
    ]);
    assert.equal(later.length, 2, 'an unsubscribed listener hears nothing more');

    choices.setEnabled('hello', false);
    choices.markReadOnly('gis.lookup', '2.0.0', true);
    store.close();
    const again = ProjectStore.openInHome(home);
    const reopened = new PluginChoices(again.pluginChoices);
    assert.equal(reopened.isEnabled('hello'), false);
    assert.equal(reopened.isEnabled('stamp'), true);
    assert.equal(reopened.readOnlyMarked('gis.lookup', '2.0.0'), true);
    assert.equal(reopened.readOnlyMarked('gis.lookup', '1.0.0'), false);
    again.close();
  });
});

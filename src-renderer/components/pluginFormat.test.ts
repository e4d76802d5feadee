import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { originLabel, pluginCountLabel } from './pluginFormat.js';

const plugin = (state: PluginInfo['state']) => ({ state }) as PluginInfo;

describe('plugin panel formatting', () => {
  it('counts plugins and says how many are unavailable', () => {
    assert.equal(pluginCountLabel([]), '0 plugins');
    assert.equal(pluginCountLabel([plugin('available')]), '1 plugin');
    assert.equal(pluginCountLabel([plugin('available'), plugin('unavailable')]), '2 plugins, 1 unavailable');
  });

  it('names where a plugin came from', () => {
    assert.equal(originLabel('built-in'), 'built-in');
    assert.equal(originLabel('user'), 'your plugins folder');
    assert.equal(originLabel('project'), "this project's plugins folder");
  });
});

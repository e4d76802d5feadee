import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { checksLabel, enabledLabel, offersReadOnlyMark, originLabel, pluginCountLabel } from './pluginFormat.js';

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

  it('offers the read-only mark for MCP tools only', () => {
    const tool = (executor?: PluginInfo['tools'][number]['executor']) => ({ executor }) as PluginInfo['tools'][number];
    assert.equal(offersReadOnlyMark(tool('mcp')), true);
    for (const other of ['command', 'http', 'grpc', 'module', undefined] as const)
      assert.equal(offersReadOnlyMark(tool(other)), false, other);
  });

  it('says whether a plugin is on in this project', () => {
    assert.match(enabledLabel({ enabled: true }), /^On/);
    assert.match(enabledLabel({ enabled: false }), /^Off.*not offered/);
  });

  it('says what was checked before a plugin is offered, and how it went', () => {
    assert.equal(checksLabel({ state: 'passed', selfTestCases: 7, endpoints: 0 }), 'passed: 7 self-test cases');
    assert.equal(checksLabel({ state: 'running', selfTestCases: 1, endpoints: 2 }), 'running: 1 self-test case, 2 endpoints probed');
    assert.equal(checksLabel({ state: 'failed', selfTestCases: 0, endpoints: 1 }), 'failed (see below): 1 endpoint probed');
    assert.equal(checksLabel({ state: 'passed', selfTestCases: 0, endpoints: 0 }), 'passed: no self-tests, no endpoints');
    assert.match(checksLabel({ state: 'none', selfTestCases: 3, endpoints: 0 }), /^not run/);
  });
});

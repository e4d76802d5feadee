import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPluginManifest, type PluginToolManifest } from '../../src-shared/plugins/pluginManifest.js';
import { effectivePermission } from './mcpToolPermission.js';

/** Tools as the manifest check leaves them (defaults filled). */
function tools(): Record<string, PluginToolManifest> {
  const base = { title: 'T', group: 'G', icon: 'cog', description: 'D.' };
  const result = checkPluginManifest({
    namespace: 'demo',
    version: '1.0.0',
    name: 'Demo',
    description: 'Demo.',
    author: 'Me',
    requires: ['net'],
    tools: [
      { ...base, name: 'local_read', safety: 'read', executor: { type: 'mcp', stdio: { command: 'node', args: ['s.mjs'] } } },
      { ...base, name: 'remote_read', safety: 'read', network: true, executor: { type: 'mcp', url: 'https://mcp.example.org/mcp' } },
      { ...base, name: 'local_destroy', safety: 'destructive', executor: { type: 'mcp', stdio: { command: 'node' }, tool: 'wipe' } },
      { ...base, name: 'local_write', safety: 'write', executor: { type: 'mcp', stdio: { command: 'node' } } },
      { ...base, name: 'echo', safety: 'read', executor: { type: 'command', argv: ['/bin/echo', 'x'] } },
      { ...base, name: 'fetch', safety: 'read', network: true, executor: { type: 'http', method: 'GET', url: 'https://x.org/a' } },
    ],
  });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  return Object.fromEntries(result.manifest.tools.map((t) => [t.name, t]));
}

describe('effectivePermission', () => {
  const t = tools();

  test('an mcp tool is at least write and network, whatever the manifest declares', () => {
    assert.deepEqual(effectivePermission(t.local_read!, false), { safety: 'write', network: true });
    assert.deepEqual(effectivePermission(t.remote_read!, false), { safety: 'write', network: true });
    assert.deepEqual(effectivePermission(t.local_write!, false), { safety: 'write', network: true });
  });

  test('a destructive mcp tool stays destructive', () => {
    assert.deepEqual(effectivePermission(t.local_destroy!, false), { safety: 'destructive', network: true });
  });

  test('marked read-only by the person: read; network only for a URL server', () => {
    assert.deepEqual(effectivePermission(t.local_read!, true), { safety: 'read', network: false });
    assert.deepEqual(effectivePermission(t.local_destroy!, true), { safety: 'read', network: false });
    assert.deepEqual(effectivePermission(t.remote_read!, true), { safety: 'read', network: true });
  });

  test('other executors keep what plugin.yaml declares; a mark does not apply to them', () => {
    assert.deepEqual(effectivePermission(t.echo!, false), { safety: 'read', network: false });
    assert.deepEqual(effectivePermission(t.fetch!, true), { safety: 'read', network: true });
    assert.deepEqual(effectivePermission({ ...t.echo!, safety: 'write' }, true), { safety: 'write', network: false });
  });
});

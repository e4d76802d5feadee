import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildPluginHost } from '../plugin-host/buildPluginHost.js';
import { readPluginFolder } from '../readPluginRoot.js';
import { ModuleHost } from './moduleExecutor.js';

const DEMO = fileURLToPath(new URL('../../../e2e/fixtures/plugins/module-demo', import.meta.url));

test('the module-demo example plugin is a valid plugin and its tool runs in a plugin host', async () => {
  const entry = readPluginFolder(DEMO, 'user');
  assert.deepEqual(entry.reasons, []);
  assert.equal(entry.state, 'available');
  assert.equal(entry.readme, true);
  const tool = entry.manifest?.tools[0];
  assert.equal(tool?.name, 'count_words');
  assert.deepEqual(tool?.executor, { type: 'module', entry: 'index.mjs' });

  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'mapwright-module-demo-')));
  try {
    const host = await ModuleHost.start({
      pluginDir: DEMO,
      entry: 'index.mjs',
      requires: entry.manifest?.requires ?? [],
      handles: { project: { layers: async () => [{ name: 'roads', kind: 'vector', source: '/data/roads.gpkg' }] } },
      outputsDir: join(tmp, 'outputs'),
      hostEntry: await buildPluginHost(join(tmp, 'plugin-host.mjs')),
      sandbox: 'auto',
      timeoutMs: 10_000,
    });
    try {
      assert.deepEqual(host.tools, ['count_words']);
      const out = await host.call(
        'count_words',
        { text: 'one two  three' },
        {
          signal: new AbortController().signal,
          workDir: join(tmp, 'outputs', 'call'),
        },
      );
      assert.deepEqual(out, { result: { words: 3, layers: ['roads'] }, files: [] });
    } finally {
      host.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

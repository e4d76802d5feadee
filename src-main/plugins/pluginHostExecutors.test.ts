import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { buildPluginHost } from './plugin-host/buildPluginHost.js';
import { PluginHost } from './pluginHost.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(REPO, 'e2e', 'fixtures', 'plugins');

async function waitFor(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The mcp and module executors through the plugin host, as the app runs them: the probe reads
 * an MCP server's schemas, its tools count as write + network until the person marks them
 * read-only, and a module runs in the built plugin host with the project handle.
 */
describe('plugin host: mcp and module plugins', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mapwright-plugin-exec-'));
  const home = path.join(root, 'home');
  const registry = new ToolRegistry([]);
  const marked = new Set<string>();
  let plugins: PluginHost;

  before(async () => {
    mkdirSync(path.join(root, 'project'), { recursive: true });
    for (const name of ['mcp-demo', 'module-demo'])
      cpSync(path.join(FIXTURES, name), path.join(home, 'plugins', name), { recursive: true });
    // The same module, eager: its host starts as soon as the version is offered.
    const eager = path.join(home, 'plugins', 'module-eager');
    cpSync(path.join(FIXTURES, 'module-demo'), eager, { recursive: true });
    const yaml = path.join(eager, 'plugin.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('namespace: module_demo', 'namespace: module_eager\nload: eager'));
    // The same module with a self-test: its test run must not leave a host that writes only to the scratch folder.
    const tested = path.join(home, 'plugins', 'module-tested');
    cpSync(path.join(FIXTURES, 'module-demo'), tested, { recursive: true });
    const testedYaml = path.join(tested, 'plugin.yaml');
    writeFileSync(testedYaml, readFileSync(testedYaml, 'utf8').replace('namespace: module_demo', 'namespace: module_tested'));
    mkdirSync(path.join(tested, 'tests'));
    writeFileSync(
      path.join(tested, 'tests', 'count.yaml'),
      [
        'name: counts two words',
        'tool: count_words',
        'arguments: { text: "two words" }',
        'expect:',
        '  ok: true',
        '  shape: { type: object, properties: { result: { type: object } }, required: [result] }',
      ].join('\n'),
    );
    const hostEntry = await buildPluginHost(path.join(root, 'host', 'plugin-host.mjs'));
    plugins = new PluginHost({
      home,
      projectPath: path.join(root, 'project', 'project.mapwright'),
      builtInDir: path.join(root, 'none'),
      registry,
      runtime: { hostEntry },
      choices: { isEnabled: () => true, readOnlyMarked: (toolId, version) => marked.has(`${toolId}@${version}`) },
      tools: { outputsDir: () => path.join(root, 'outputs'), hidePaths: () => [], readPaths: () => [] },
      changed: () => {},
    });
    await waitFor('both plugins to be checked', () => plugins.list().every((p) => p.state === 'available'));
  });
  after(async () => {
    await plugins.close();
    rmSync(root, { recursive: true, force: true });
  });

  const ctx = (handles: object = {}) => ({ handles, caller: 'model' as const, signal: new AbortController().signal, progress: () => {} });

  it('load: lazy starts nothing before the first call; load: eager starts its executor once offered', async () => {
    await waitFor('the eager module host', () => plugins.started().includes('module_eager@0.1.0'));
    assert.ok(!plugins.started().includes('module_demo@0.1.0'), `started: ${plugins.started().join(', ')}`);
    assert.ok(!plugins.started().includes('mcp_demo@0.1.0'), 'the probe of a lazy MCP plugin closed its server');
  });

  it('a module plugin that passed its self-test runs the project’s calls with the project’s outputs', async () => {
    const info = plugins.list().find((p) => p.namespace === 'module_tested')!;
    assert.deepEqual(info.checks, { state: 'passed', selfTestCases: 1, endpoints: 0 });
    const out = (await registry
      .find('module_tested.count_words')!
      .def.execute({ text: 'a b' }, ctx({ project: { listLayers: () => [] } }) as never)) as {
      result: unknown;
    };
    assert.deepEqual(out.result, { words: 2, layers: [] });
  });

  it('an MCP tool that declares no parameters takes the server’s schema; both run through one server', async () => {
    const reverse = registry.find('mcp_demo.reverse_text')!;
    assert.ok(reverse, JSON.stringify(plugins.list().map((p) => [p.id, p.reasons])));
    assert.equal(reverse.def.input.safeParse({}).success, false, 'the server requires text');
    const out = (await reverse.def.execute({ text: 'abc' }, ctx() as never)) as { content: string };
    assert.equal(out.content, 'cba');
    const info = plugins.list().find((p) => p.namespace === 'mcp_demo')!;
    assert.equal(info.sandboxed, false, 'an MCP server over stdio runs as the person: listed as unsandboxed');
    assert.deepEqual(info.checks, { state: 'passed', selfTestCases: 0, endpoints: 1 });
    const note = (await registry.find('mcp_demo.add_note')!.def.execute({ note: 'x' }, ctx() as never)) as { content: string };
    assert.match(note.content, /1/);
  });

  it('MCP tools count as write and network whatever the manifest and the server’s hints say, until marked read-only', () => {
    const add = registry.find('mcp_demo.add_note')!.def;
    assert.equal(add.safety, 'write');
    assert.equal(add.network, true);
    marked.add('mcp_demo.add_note@0.1.0');
    plugins.choicesChanged();
    const after = registry.find('mcp_demo.add_note')!.def;
    assert.equal(after.safety, 'read');
    assert.equal(after.network, false, 'a stdio server on this machine');
    assert.equal(registry.find('mcp_demo.reverse_text')!.def.safety, 'write', 'a mark is per tool');
  });

  it('a module tool runs in the plugin host and reads the project through its handle', async () => {
    const count = registry.find('module_demo.count_words')!;
    const project = { listLayers: () => [testLayer({ name: 'roads' }), testLayer({ name: 'rivers' })] };
    const out = (await count.def.execute({ text: 'one two  three' }, ctx({ project }) as never)) as { result: unknown };
    assert.deepEqual(out.result, { words: 3, layers: ['roads', 'rivers'] });
    assert.deepEqual(
      readdirSync(path.join(root, 'outputs')).filter((n) => n.startsWith('count_words-')),
      [],
      'a call that returned no file leaves no folder in the outputs',
    );
  });
});

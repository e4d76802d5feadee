import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { resetSandboxProbe } from './executors/bwrapSandbox.js';
import { PluginHost, type PluginChoiceView } from './pluginHost.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILT_IN = path.join(REPO, 'plugins');

async function waitFor(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('plugin host: plugins become tools of the registry, hot', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mapwright-plugin-host-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A host over a fresh home and project; `open` starts another over the same folders and registry (a restart). */
  function host(name: string) {
    const home = path.join(root, name, 'home');
    const projectPath = path.join(root, name, 'project', 'project.mapwright');
    mkdirSync(path.dirname(projectPath), { recursive: true });
    const registry = new ToolRegistry([]);
    const pushed: number[] = [];
    const open = (over: { builtInDir?: string; hidePaths?: readonly string[]; choices?: PluginChoiceView } = {}) =>
      new PluginHost({
        ...(over.choices ? { choices: over.choices } : {}),
        home,
        projectPath,
        builtInDir: over.builtInDir ?? BUILT_IN,
        registry,
        tools: { outputsDir: () => path.join(root, name, 'outputs'), hidePaths: () => over.hidePaths ?? [], readPaths: () => [] },
        changed: (list) => pushed.push(list.length),
        debounceMs: 50,
      });
    return { home, projectPath, registry, plugins: open(), pushed, open };
  }

  it('the built-in hello plugin is listed available and its tool registered; the tool runs its command', async () => {
    const { registry, plugins } = host('builtin');
    assert.deepEqual(
      plugins.list().find((p) => p.id === 'hello@1.0.0')?.reasons,
      ['its checks are running (connectivity, self-tests)'],
      'not offered before its cases pass',
    );
    await waitFor('hello to pass its self-test', () => plugins.list().find((p) => p.id === 'hello@1.0.0')?.state === 'available');
    const hello = plugins.list().find((p) => p.id === 'hello@1.0.0');
    assert.equal(hello?.state, 'available', JSON.stringify(hello?.reasons));
    const tool = registry.find('hello_greet');
    assert.ok(tool, 'offered under its wire name');
    assert.equal(tool.def.safety, 'read');
    const ctx = { handles: {}, caller: 'model' as const, signal: new AbortController().signal, progress: () => {} };
    const out = (await tool.def.execute({ name: 'World' }, ctx as never)) as { stdout: string };
    assert.equal(out.stdout, 'Hello, World!\n');
    await plugins.close();
  });

  it('a version whose endpoint does not answer the connectivity probe is unavailable with the reason, and not registered', async () => {
    const { home, registry, plugins, open } = host('unreachable');
    const dir = path.join(home, 'plugins', 'remote');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'plugin.yaml'),
      [
        'namespace: remote',
        'version: 0.1.0',
        'name: Remote',
        'description: A tool served by an MCP server.',
        'author: Test',
        'requires: [net]',
        'tools:',
        '  - name: ask',
        '    title: Ask',
        '    group: Test',
        '    icon: cog',
        '    description: Asks an MCP server.',
        '    safety: read',
        '    network: true',
        // A loopback origin the person never allowed: the SSRF guard refuses it before anything is sent.
        '    executor: { type: mcp, url: "http://127.0.0.1:9/mcp" }',
      ].join('\n'),
    );
    await plugins.close();
    const again = open();
    await waitFor(
      'the probe',
      () =>
        again
          .list()
          .find((p) => p.namespace === 'remote')
          ?.reasons[0]?.startsWith('its checks') === false,
    );
    const remote = again.list().find((p) => p.namespace === 'remote');
    assert.equal(remote?.state, 'unavailable');
    assert.match(remote!.reasons.join(' '), /127\.0\.0\.1:9/);
    assert.equal(registry.find('remote.ask'), undefined);
    await again.close();
  });

  it('a version whose self-test fails is unavailable, naming the case, and never registered', async () => {
    const { home, registry, plugins, open } = host('selftest');
    const dir = path.join(home, 'plugins', 'hello_bad');
    cpSync(path.join(BUILT_IN, 'hello'), dir, { recursive: true });
    const yaml = path.join(dir, 'plugin.yaml');
    writeFileSync(
      yaml,
      readFileSync(yaml, 'utf8').replace('namespace: hello', 'namespace: hello_bad').replace("'Hello, {name}!'", "'Bye, {name}!'"),
    );
    await plugins.close();
    const again = open({ builtInDir: path.join(root, 'none') });
    await waitFor(
      'the self-test to finish',
      () =>
        again
          .list()
          .find((p) => p.namespace === 'hello_bad')
          ?.reasons[0]?.startsWith('its checks are running') !== true,
    );
    const bad = again.list().find((p) => p.namespace === 'hello_bad')!;
    assert.equal(bad.state, 'unavailable');
    assert.match(bad.reasons.join(' '), /self-test greet\.yaml: greets the world: the result does not have the expected shape/);
    assert.equal(registry.find('hello_bad.greet'), undefined);
    await again.close();
  });

  it('unsandboxed, a command argument naming a network source or an app file is refused; the panel says unsandboxed', async () => {
    process.env.MAPWRIGHT_PLUGIN_SANDBOX = 'off';
    resetSandboxProbe();
    try {
      const { home, registry, plugins, open } = host('unsandboxed');
      await waitFor('hello', () => plugins.list().find((p) => p.id === 'hello@1.0.0')?.state === 'available');
      assert.equal(plugins.list().find((p) => p.id === 'hello@1.0.0')?.sandboxed, false);
      const tool = registry.find('hello.greet')!;
      const ctx = { handles: {}, caller: 'model' as const, signal: new AbortController().signal, progress: () => {} };
      await assert.rejects(tool.def.execute({ name: '/vsicurl/http://169.254.169.254/latest' }, ctx as never), /reaches the network/);
      await assert.rejects(tool.def.execute({ name: 'https://example.com/x.tif' }, ctx as never), /reaches the network/);
      assert.equal(((await tool.def.execute({ name: 'World' }, ctx as never)) as { sandboxed: boolean }).sandboxed, false);
      await plugins.close();
      const inHome = open({ hidePaths: [home] });
      await waitFor('hello again', () => inHome.list().find((p) => p.id === 'hello@1.0.0')?.state === 'available');
      await assert.rejects(
        registry.find('hello.greet')!.def.execute({ name: path.join(home, 'settings.sqlite') }, ctx as never),
        /one of Mapwright's own files/,
      );
      await inHome.close();
    } finally {
      delete process.env.MAPWRIGHT_PLUGIN_SANDBOX;
      resetSandboxProbe();
    }
  });

  it('a plugin copied into the home while watching is registered without a restart; removed, its tools go', async () => {
    const { home, registry, plugins, pushed } = host('hot');
    await plugins.watch();
    const target = path.join(home, 'plugins', 'hello2');
    const source = path.join(BUILT_IN, 'hello');
    const copy = path.join(root, 'hot', 'staging');
    cpSync(source, copy, { recursive: true });
    const yaml = path.join(copy, 'plugin.yaml');
    const text = readFileSync(yaml, 'utf8').replace('namespace: hello', 'namespace: hello_two');
    writeFileSync(yaml, text);
    cpSync(copy, target, { recursive: true });
    const deadline = Date.now() + 10_000;
    while (!registry.find('hello_two.greet') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(registry.find('hello_two.greet'), 'registered after the copy');
    assert.ok(pushed.length >= 2, 'the panel was told');
    rmSync(target, { recursive: true, force: true });
    const gone = Date.now() + 10_000;
    while (registry.find('hello_two.greet') && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
    assert.equal(registry.find('hello_two.greet'), undefined, 'removed with its folder');
    await plugins.close();
  });
  /** A copy of the built-in hello plugin under another namespace, with extra top-level lines (e.g. depends_on). */
  function helloCopy(home: string, namespace: string, extra: string[] = []): void {
    const dir = path.join(home, 'plugins', namespace);
    cpSync(path.join(BUILT_IN, 'hello'), dir, { recursive: true });
    const yaml = path.join(dir, 'plugin.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('namespace: hello', [`namespace: ${namespace}`, ...extra].join('\n')));
  }

  it('depends_on: a version whose dependency is missing or out of range is unavailable with the reason; met, it is offered', async () => {
    const { home, registry, plugins, open } = host('depends');
    helloCopy(home, 'needs_new', ['depends_on: [hello@^2.0.0]']);
    helloCopy(home, 'needs_old', ['depends_on: [{ namespace: hello, version: 1.x }]']);
    helloCopy(home, 'needs_ghost', ['depends_on: [ghost]']);
    await plugins.close();
    const again = open();
    const settled = () => again.list().every((p) => !p.reasons.some((r) => r.includes('checks are running')));
    await waitFor('the checks', settled);
    const byNs = (ns: string) => again.list().find((p) => p.namespace === ns)!;
    assert.equal(byNs('needs_old').state, 'available', JSON.stringify(byNs('needs_old').reasons));
    assert.ok(registry.find('needs_old.greet'));
    assert.deepEqual(byNs('needs_new').reasons, ['needs hello@^2.0.0; installed: 1.0.0']);
    assert.deepEqual(byNs('needs_ghost').reasons, ['needs ghost@*, which is not installed or not available']);
    assert.equal(registry.find('needs_new.greet'), undefined);
    await again.close();
  });

  it('a plugin the person switched off leaves the tool list, its dependents say why; switched on, both come back', async () => {
    const { home, registry, plugins, open } = host('switched');
    helloCopy(home, 'needs_hello', ['depends_on: [hello]']);
    await plugins.close();
    const off = new Set<string>(['hello']);
    const again = open({ choices: { isEnabled: (ns) => !off.has(ns), readOnlyMarked: () => false } });
    await waitFor('the checks', () => again.list().every((p) => !p.reasons.some((r) => r.includes('checks are running'))));
    assert.equal(registry.find('hello.greet'), undefined, 'switched off: not offered');
    assert.deepEqual(again.list().find((p) => p.namespace === 'needs_hello')?.reasons, [
      'needs hello@*, which is switched off in this project',
    ]);
    off.clear();
    again.choicesChanged();
    assert.ok(registry.find('hello.greet'), 'offered again at once');
    assert.ok(registry.find('needs_hello.greet'));
    await again.close();
  });
});

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { PluginHost } from './pluginHost.js';
import { pinCurrentVersions } from './pluginPins.js';

const HELLO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'hello');
const newStore = tempProjectStores('mapwright-pins-');

/** The hello plugin as `pin_demo` at `version`, with a description that names the version. */
function install(home: string, version: string, deprecated = false): void {
  const dir = path.join(home, 'plugins', `pin_demo-${version}`);
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(HELLO, dir, { recursive: true });
  const yaml = path.join(dir, 'plugin.yaml');
  let text = readFileSync(yaml, 'utf8')
    .replace('namespace: hello', 'namespace: pin_demo')
    .replace('version: 1.0.0', `version: ${version}`)
    .replace('Greets someone by name', `Version ${version} greets someone by name`);
  if (deprecated) text = text.replace('    safety: read', '    safety: read\n    deprecated: use another greeter');
  writeFileSync(yaml, text);
}

async function settled(host: PluginHost, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (host.list().filter((p) => p.namespace === 'pin_demo' && p.state === 'available').length < count) {
    if (Date.now() > deadline) throw new Error(`plugins not ready: ${JSON.stringify(host.list().map((p) => [p.id, p.reasons]))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('plugin versions: a conversation keeps the versions it started with', () => {
  it('v1 → v2 while a conversation stays on v1; a new conversation gets v2; a deprecated v3 goes to nobody new', async () => {
    const { home, store } = newStore();
    const registry = new ToolRegistry([]);
    const open = () =>
      new PluginHost({
        home,
        projectPath: store.info.path,
        builtInDir: path.join(home, 'no-built-ins'),
        registry,
        tools: { outputsDir: () => path.join(home, 'out'), hidePaths: () => [], readPaths: () => [] },
        changed: () => {},
      });
    install(home, '1.0.0');
    let host = open();
    await settled(host, 1);
    const first = pinCurrentVersions(store.pluginPins, 'conversation-1', host.currentVersions());
    assert.deepEqual([...first], [['pin_demo', '1.0.0']]);
    await host.close();

    install(home, '2.0.0');
    host = open();
    await settled(host, 2);
    assert.equal(host.currentVersions().get('pin_demo'), '2.0.0');
    const stillFirst = pinCurrentVersions(store.pluginPins, 'conversation-1', host.currentVersions());
    assert.equal(stillFirst.get('pin_demo'), '1.0.0', 'the pin holds');
    const oldTool = registry.view(stillFirst).find('pin_demo_greet')!;
    assert.equal(oldTool.def.version, '1.0.0');
    assert.match(oldTool.def.description, /^Version 1\.0\.0/);
    assert.ok(
      registry
        .view(stillFirst)
        .forModel()
        .some((t) => t.def.id === 'pin_demo.greet' && t.def.version === '1.0.0'),
      'the model of the first conversation is offered v1',
    );
    const second = pinCurrentVersions(store.pluginPins, 'conversation-2', host.currentVersions());
    assert.equal(registry.view(second).find('pin_demo.greet')!.def.version, '2.0.0');
    assert.notEqual(oldTool.definitionHash, registry.view(second).find('pin_demo.greet')!.definitionHash, 'grants are per version');
    await host.close();

    install(home, '3.0.0', true);
    host = open();
    await settled(host, 3);
    assert.equal(host.currentVersions().get('pin_demo'), '2.0.0', 'a deprecated version is not given to new conversations');
    const third = pinCurrentVersions(store.pluginPins, 'conversation-3', host.currentVersions());
    assert.equal(third.get('pin_demo'), '2.0.0');
    await host.close();
  });

  it('deleting a conversation drops its pins', () => {
    const { store } = newStore();
    store.pluginPins.pin('c', 'pin_demo', '1.0.0');
    store.conversations.remove('c');
    assert.equal(store.pluginPins.of('c').size, 0);
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { nextReload } from '../skills/testing/nextReload.js';
import { stringify } from 'yaml';
import { pluginToolId } from '../../src-shared/plugins/pluginManifest.js';
import { PluginCatalogue, type PluginRoot } from './pluginCatalogue.js';
import { readPluginFolder, type PluginEntry } from './readPluginRoot.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mapwright-plugins-'));
  temps.push(d);
  return d;
}

type Json = Record<string, unknown>;

function manifest(namespace: string, version: string, executor: Json = { type: 'command', argv: ['/bin/echo', '{text}'] }): Json {
  return {
    namespace,
    version,
    name: `${namespace} ${version}`,
    description: `The ${namespace} plugin.`,
    author: 'Tests',
    tools: [
      {
        name: 'say',
        title: 'Say',
        group: 'Tests',
        icon: 'cog',
        description: 'Says the text.',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        safety: 'read',
        executor,
      },
    ],
  };
}

/** Declares what a network executor must: `net` in requires, `network: true` on the tool. */
function networked(m: Json): Json {
  return { ...m, requires: ['net'], tools: (m.tools as Json[]).map((t) => ({ ...t, network: true })) };
}

/** Writes `<root>/<folder>/plugin.yaml` (an object is written as YAML, a string as it is) and other files. */
function writePlugin(root: string, folder: string, yaml: Json | string, files: Record<string, string> = {}): string {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), typeof yaml === 'string' ? yaml : stringify(yaml));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function roots() {
  const base = tempDir();
  const dirs = { builtIn: join(base, 'repo', 'plugins'), user: join(base, 'home', 'plugins'), project: join(base, 'projects', 'plugins') };
  const list: PluginRoot[] = [
    // Given out of order: precedence comes from the origin, not the order of the list.
    { dir: dirs.project, origin: 'project' },
    { dir: dirs.builtIn, origin: 'built-in' },
    { dir: dirs.user, origin: 'user' },
  ];
  return { base, dirs, list };
}

const summary = (entries: PluginEntry[]) => entries.map((e) => `${e.namespace}@${e.version} ${e.origin} ${e.state}`);

function onlyEntry(root: string, folder: string): PluginEntry {
  return readPluginFolder(join(root, folder), 'user');
}

function assertReason(entry: PluginEntry, pattern: RegExp): void {
  assert.equal(entry.state, 'unavailable', `expected unavailable: ${entry.dir}`);
  assert.ok(
    entry.reasons.some((r) => pattern.test(r)),
    `expected a reason ${pattern} in:\n${entry.reasons.join('\n')}`,
  );
}

describe('PluginCatalogue: roots and precedence', () => {
  it('a project plugin overrides the person’s of the same namespace, which overrides a built-in one', () => {
    const { dirs, list } = roots();
    writePlugin(dirs.builtIn, 'maps', manifest('maps', '1.0.0'));
    writePlugin(dirs.builtIn, 'extras', manifest('extras', '1.0.0'));
    writePlugin(dirs.builtIn, 'tiles', manifest('tiles', '1.0.0'));
    writePlugin(dirs.user, 'maps', manifest('maps', '2.0.0'));
    writePlugin(dirs.user, 'tiles', manifest('tiles', '3.0.0'));
    writePlugin(dirs.project, 'maps', manifest('maps', '1.5.0'));
    const catalogue = new PluginCatalogue(list);
    assert.deepEqual(summary(catalogue.list()), [
      'extras@1.0.0 built-in available',
      'maps@1.5.0 project available',
      'tiles@3.0.0 user available',
    ]);
    // The project's 1.5.0 wins though the person's 2.0.0 is newer: overriding is by origin.
    assert.equal(catalogue.find('maps')?.origin, 'project');
    assert.equal(catalogue.all().length, 6);
  });

  it('keeps every valid version of a namespace side by side, newest first', () => {
    const { dirs, list } = roots();
    writePlugin(dirs.user, 'tiles', manifest('tiles', '1.0.0'));
    writePlugin(dirs.user, 'tiles-2', manifest('tiles', '2.0.0-rc.1'));
    writePlugin(dirs.user, 'tiles-1.10', manifest('tiles', '1.10.0'));
    writePlugin(dirs.user, 'tiles-final', manifest('tiles', '2.0.0'));
    const catalogue = new PluginCatalogue(list);
    assert.deepEqual(
      catalogue.versions('tiles').map((e) => e.version),
      ['2.0.0', '2.0.0-rc.1', '1.10.0', '1.0.0'],
    );
    assert.equal(catalogue.find('tiles')?.version, '2.0.0');
    assert.equal(catalogue.find('tiles', '1.10.0')?.dir, join(dirs.user, 'tiles-1.10'));
    assert.equal(catalogue.find('tiles', '9.9.9'), undefined);
  });

  it('two folders of the same version: the first is used, the second listed unavailable saying why', () => {
    const { dirs, list } = roots();
    writePlugin(dirs.user, 'a-tiles', manifest('tiles', '1.0.0'));
    writePlugin(dirs.user, 'b-tiles', manifest('tiles', '1.0.0'));
    const catalogue = new PluginCatalogue(list);
    assert.equal(catalogue.find('tiles')?.dir, join(dirs.user, 'a-tiles'));
    const second = catalogue.list().find((e) => e.dir.endsWith('b-tiles'));
    assert.ok(second);
    assertReason(second, /version 1\.0\.0 of tiles is also in .*a-tiles/);
  });

  it('a broken override is listed with its reasons and leaves the working version below in force', () => {
    const { dirs, list } = roots();
    writePlugin(dirs.user, 'maps', manifest('maps', '1.0.0'));
    writePlugin(dirs.project, 'maps', { ...manifest('maps', '2.0.0'), tools: [] });
    const catalogue = new PluginCatalogue(list);
    assert.deepEqual(summary(catalogue.versions('maps')), ['maps@2.0.0 project unavailable', 'maps@1.0.0 user available']);
    assert.equal(catalogue.find('maps')?.origin, 'user');
    assertReason(catalogue.versions('maps')[0]!, /^plugin\.yaml: tools: a plugin needs at least one tool$/);
  });

  it('a missing root is empty, and a file beside the plugin folders is not a plugin', () => {
    const { dirs, list } = roots();
    mkdirSync(dirs.builtIn, { recursive: true });
    writeFileSync(join(dirs.builtIn, 'plugin.schema.json'), '{}');
    assert.deepEqual(new PluginCatalogue(list).list(), []);
  });
});

describe('readPluginFolder: a broken plugin is listed unavailable with the reason, never thrown', () => {
  it('names the culprit of a manifest that fails its check', () => {
    const { dirs } = roots();
    const m = manifest('maps', '1.0');
    (m.tools as Json[])[0]!.rules = { text: ['metres'] };
    writePlugin(dirs.user, 'maps', m);
    const entry = onlyEntry(dirs.user, 'maps');
    assert.deepEqual([entry.namespace, entry.version], ['maps', '1.0']);
    assertReason(entry, /^plugin\.yaml: version: '1\.0' is not a semantic version/);
    assertReason(entry, /^plugin\.yaml: tools\[0\]\.rules\.text: unknown rule 'metres'/);
    assert.equal(entry.manifest, undefined);
  });

  it('a folder without plugin.yaml, invalid YAML, duplicate keys, YAML that is not a mapping', () => {
    const { dirs } = roots();
    mkdirSync(join(dirs.user, 'empty'), { recursive: true });
    assertReason(onlyEntry(dirs.user, 'empty'), /^no plugin\.yaml in this folder$/);
    writePlugin(dirs.user, 'bad-yaml', 'namespace: [maps\n');
    assertReason(onlyEntry(dirs.user, 'bad-yaml'), /^plugin\.yaml is not valid YAML/);
    writePlugin(dirs.user, 'dup', 'namespace: a\nnamespace: b\n');
    assertReason(onlyEntry(dirs.user, 'dup'), /^plugin\.yaml is not valid YAML: Map keys must be unique/);
    writePlugin(dirs.user, 'scalar', 'just text');
    assertReason(onlyEntry(dirs.user, 'scalar'), /must be a mapping/);
  });

  it('refuses a YAML alias bomb before expanding it', () => {
    const { dirs } = roots();
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    writePlugin(dirs.user, 'bomb', `${levels.join('\n')}\n`);
    const started = Date.now();
    assertReason(onlyEntry(dirs.user, 'bomb'), /^plugin\.yaml is refused: Excessive alias count/);
    assert.ok(Date.now() - started < 2000, 'the bomb was expanded');
  });

  it('a few aliases are fine', () => {
    const { dirs } = roots();
    const m = manifest('maps', '1.0.0');
    const tool = (m.tools as Json[])[0]!;
    const yaml = stringify({ ...m, tools: [tool, { ...tool, name: 'say_again' }] })
      .replace(/safety: read/, 'safety: &safe read')
      .replace(/safety: read/, 'safety: *safe');
    writePlugin(dirs.user, 'aliased', yaml);
    assert.equal(onlyEntry(dirs.user, 'aliased').state, 'available', onlyEntry(dirs.user, 'aliased').reasons.join('\n'));
  });

  it('refuses a plugin.yaml over the size limit without reading it', () => {
    const { dirs } = roots();
    writePlugin(dirs.user, 'huge', `description: "${'x'.repeat(300 * 1024)}"\n`);
    assertReason(onlyEntry(dirs.user, 'huge'), /^plugin\.yaml is 301 KiB; at most 256 KiB$/);
  });
});

describe('readPluginFolder: paths stay inside the plugin folder', () => {
  it('refuses .. and absolute paths by their text', () => {
    const { dirs } = roots();
    writePlugin(dirs.user, 'up', manifest('up', '1.0.0', { type: 'module', entry: '../outside.js' }));
    assertReason(onlyEntry(dirs.user, 'up'), /^plugin\.yaml: tools\[0\]\.executor\.entry: '\.\.\/outside\.js' leaves the plugin folder/);
    writePlugin(
      dirs.user,
      'abs',
      manifest('abs', '1.0.0', { type: 'grpc', proto: '/etc/x.proto', service: 'a.B', method: 'M', address: 'localhost:1' }),
    );
    const abs = onlyEntry(dirs.user, 'abs');
    assertReason(abs, /^plugin\.yaml: tools\[0\]\.executor\.proto: '\/etc\/x\.proto' is absolute/);
  });

  it('refuses symbolic links that lead out of the folder, for executor files and tests alike', () => {
    const { base, dirs } = roots();
    writeFileSync(join(base, 'outside.js'), 'export {};');
    writeFileSync(join(base, 'outside.sh'), '#!/bin/sh\n');
    writeFileSync(join(base, 'outside.yaml'), 'tool: say\nexpect: { ok: true }\n');
    const dir = writePlugin(dirs.user, 'linked', manifest('linked', '1.0.0', { type: 'module', entry: 'dist/index.js' }));
    mkdirSync(join(dir, 'dist'));
    symlinkSync(join(base, 'outside.js'), join(dir, 'dist', 'index.js'));
    assertReason(
      onlyEntry(dirs.user, 'linked'),
      /^plugin\.yaml: tools\[0\]\.executor\.entry: 'dist\/index\.js' leads outside the plugin folder/,
    );

    const cmd = writePlugin(dirs.user, 'linked-bin', manifest('linked_bin', '1.0.0', { type: 'command', argv: ['bin/run.sh', '{text}'] }));
    mkdirSync(join(cmd, 'bin'));
    symlinkSync(join(base, 'outside.sh'), join(cmd, 'bin', 'run.sh'));
    assertReason(onlyEntry(dirs.user, 'linked-bin'), /^plugin\.yaml: tools\[0\]\.executor\.argv\[0\]: 'bin\/run\.sh' leads outside/);

    const tests = writePlugin(dirs.user, 'linked-tests', manifest('linked_tests', '1.0.0'));
    mkdirSync(join(tests, 'tests'));
    symlinkSync(join(base, 'outside.yaml'), join(tests, 'tests', 'stolen.yaml'));
    assertReason(onlyEntry(dirs.user, 'linked-tests'), /^tests\/stolen\.yaml: 'tests\/stolen\.yaml' leads outside/);
  });

  it('accepts a link that stays inside, and needs the named files to exist', () => {
    const { dirs } = roots();
    const dir = writePlugin(dirs.user, 'inside', manifest('inside', '1.0.0', { type: 'module', entry: 'index.js' }), {
      'dist/real.js': 'export {};',
    });
    symlinkSync(join(dir, 'dist', 'real.js'), join(dir, 'index.js'));
    assert.equal(onlyEntry(dirs.user, 'inside').state, 'available', onlyEntry(dirs.user, 'inside').reasons.join('\n'));
    writePlugin(
      dirs.user,
      'missing',
      networked(manifest('missing', '1.0.0', { type: 'grpc', proto: 'x.proto', service: 'a.B', method: 'M', address: 'localhost:1' })),
    );
    assertReason(onlyEntry(dirs.user, 'missing'), /executor\.proto: 'x\.proto' does not exist in the plugin folder/);
    writePlugin(dirs.user, 'no-prog', manifest('no_prog', '1.0.0', { type: 'command', argv: ['/nonexistent/mapwright/prog'] }));
    assertReason(onlyEntry(dirs.user, 'no-prog'), /argv\[0\]: program '\/nonexistent\/mapwright\/prog' is not installed/);
  });

  it('a symlinked plugin folder is read from where it points', () => {
    const { base, dirs } = roots();
    const real = writePlugin(base, 'work-copy', manifest('dev', '0.1.0'));
    mkdirSync(dirs.user, { recursive: true });
    symlinkSync(real, join(dirs.user, 'dev'));
    assert.deepEqual(summary(new PluginCatalogue([{ dir: dirs.user, origin: 'user' }]).list()), ['dev@0.1.0 user available']);
  });
});

describe('readPluginFolder: self-tests and skills', () => {
  it('lists test cases with their files, and skills by folder', () => {
    const { dirs } = roots();
    writePlugin(dirs.user, 'maps', manifest('maps', '1.0.0'), {
      'tests/a.yaml': stringify({ tool: 'say', arguments: { text: 'hi' }, expect: { ok: true } }),
      'tests/b.yml': stringify([{ tool: 'say', expect: { error: 'invalid_params' } }]),
      'tests/notes.txt': 'not a case',
      'skills/mapping/SKILL.md': '---\nname: mapping\ndescription: x\n---\nBody\n',
      'skills/empty/README.md': 'no SKILL.md',
      'README.md': '# maps',
    });
    const entry = onlyEntry(dirs.user, 'maps');
    assert.equal(entry.state, 'available', entry.reasons.join('\n'));
    assert.deepEqual(
      entry.tests.map((t) => [t.file, t.tool, 'ok' in t.expect]),
      [
        ['tests/a.yaml', 'say', true],
        ['tests/b.yml', 'say', false],
      ],
    );
    assert.deepEqual(entry.skills, ['mapping']);
    assert.equal(entry.readme, true);
  });

  it('a case naming another tool, or arguments a success case cannot pass, makes the plugin unavailable', () => {
    const { dirs } = roots();
    writePlugin(dirs.user, 'maps', manifest('maps', '1.0.0'), {
      'tests/a.yaml': stringify({ tool: 'shout', expect: { ok: true } }),
      'tests/b.yaml': stringify([
        { tool: 'say', expect: { error: 'invalid_params' } },
        { tool: 'say', arguments: { text: 3 }, expect: { ok: true } },
      ]),
      'tests/c.yaml': stringify({ tool: 'say', expect: { ok: false } }),
    });
    const entry = onlyEntry(dirs.user, 'maps');
    assertReason(entry, /^tests\/a\.yaml: tool: 'shout' is not a tool of this plugin \(tools: say\)$/);
    assertReason(entry, /^tests\/b\.yaml: \[1\]\.arguments\.text: /);
    assertReason(entry, /^tests\/c\.yaml: expect\.ok: ok can only be true/);
    assert.ok(!entry.reasons.some((r) => r.startsWith('tests/b.yaml: [0]')), entry.reasons.join('\n'));
  });
});

describe('PluginCatalogue.watch', () => {
  it('hot-loads a plugin copied in, an edit and a removal without a restart', async () => {
    const { base, dirs, list } = roots();
    mkdirSync(join(base, 'home'), { recursive: true }); // <home>/plugins does not exist yet
    const catalogue = new PluginCatalogue(list, { debounceMs: 50 });
    await catalogue.watch();
    try {
      let reloaded = nextReload(catalogue);
      writePlugin(dirs.user, 'maps', manifest('maps', '1.0.0'));
      await reloaded;
      // The root's creation and the file may arrive as separate bursts.
      if (!catalogue.find('maps')) await nextReload(catalogue);
      assert.deepEqual(summary(catalogue.list()), ['maps@1.0.0 user available']);

      reloaded = nextReload(catalogue);
      writePlugin(dirs.user, 'maps-2', manifest('maps', '2.0.0'));
      await reloaded;
      assert.deepEqual(
        catalogue.versions('maps').map((e) => e.version),
        ['2.0.0', '1.0.0'],
      );

      reloaded = nextReload(catalogue);
      writePlugin(dirs.user, 'maps', { ...manifest('maps', '1.0.0'), load: 'sometimes' });
      await reloaded;
      assertReason(catalogue.find('maps', '1.0.0')!, /^plugin\.yaml: load: /);

      reloaded = nextReload(catalogue);
      rmSync(join(dirs.user, 'maps-2'), { recursive: true });
      await reloaded;
      assert.deepEqual(summary(catalogue.list()), ['maps@1.0.0 user unavailable']);
    } finally {
      await catalogue.close();
    }
  });

  it('close() while watch() is still starting leaves nothing behind', async () => {
    const { list } = roots();
    const catalogue = new PluginCatalogue(list, { debounceMs: 10 });
    const starting = catalogue.watch();
    await catalogue.close();
    await starting;
  });
});

describe('the shipped plugins', () => {
  it('plugins/hello validates, with its self-test and README', () => {
    const entry = readPluginFolder(join(REPO, 'plugins', 'hello'), 'built-in');
    assert.equal(entry.state, 'available', entry.reasons.join('\n'));
    assert.deepEqual([entry.namespace, entry.version, entry.readme], ['hello', '1.0.0', true]);
    const tool = entry.manifest?.tools[0];
    assert.equal(pluginToolId(entry.namespace, tool?.name ?? ''), 'hello.greet');
    assert.deepEqual([tool?.safety, tool?.executor.type], ['read', 'command']);
    assert.deepEqual(
      entry.tests.map((t) => [t.file, t.tool]),
      [['tests/greet.yaml', 'greet']],
    );
  });

  it('every folder of the repo’s plugins/ is available', () => {
    const catalogue = new PluginCatalogue([{ dir: join(REPO, 'plugins'), origin: 'built-in' }]);
    assert.ok(catalogue.list().length >= 1);
    for (const entry of catalogue.all()) assert.equal(entry.state, 'available', `${entry.dir}: ${entry.reasons.join('; ')}`);
  });
});

/**
 * The package configuration, checked without Electron's runtime and without building: the
 * checks of `npm run dist:check` (scripts/dist-check.ts) except the stand-in pack. Checks on
 * the built bundles use dist/ when it exists and skip, saying so, when it does not.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import config, { DISK_PROCESS_PACKAGES, REQUIRED_RUNTIME_FILES, dependencyClosure, unpackPatterns } from '../electron-builder.config.js';
import {
  ROOT,
  WORKFLOW,
  bareImports,
  checkBundleImports,
  checkNativeScript,
  checkPatterns,
  checkWorkflow,
  included,
  listTree,
  loadWithBuilder,
  unpacked,
  validateConfig,
  workflowNpmScripts,
} from './dist-check.js';

const distBuilt = existsSync(join(ROOT, 'dist', 'main', 'electron-main.cjs'));
const noDist = distBuilt ? false : 'dist/ is absent (run npm run build): the built bundles are not checked';

test('dist config: electron-builder loads electron-builder.config.ts and its schema accepts it', async () => {
  const loaded = await loadWithBuilder();
  assert.deepEqual(JSON.parse(JSON.stringify(loaded)), JSON.parse(JSON.stringify(config)));
  const result = await validateConfig(loaded);
  assert.deepEqual(result.problems, []);
  // The schema check is real: a wrong option is refused.
  const bad = await validateConfig({ ...config, deb: { ...config.deb, dependencies: ['libgdal32'] } });
  assert.equal(bad.problems.length, 1);
  assert.match(bad.problems[0]!, /configuration\.deb/);
});

test('dist config: targets, native rebuild left to the script, deb depends on the GDAL it was built with', () => {
  assert.equal(config.appId, 'app.mapwright');
  assert.equal(config.productName, 'Mapwright');
  assert.equal(config.npmRebuild, false);
  assert.deepEqual(config.linux?.target, ['AppImage', 'deb']);
  assert.deepEqual(config.mac?.target, ['dmg']);
  assert.deepEqual(config.win?.target, ['nsis']);
  assert.ok(config.deb?.depends?.includes('libgdal32'));
  assert.equal((config.directories as { output: string }).output, 'release');
});

test('dist config: every files/asarUnpack pattern resolves and the runtime files are packed where they must be', { skip: noDist }, () => {
  const result = checkPatterns(listTree(), config, { distBuilt });
  assert.deepEqual(result.problems, []);
});

test('dist config: file filters as electron-builder applies them (last match decides)', () => {
  const files = config.files as string[];
  const asarUnpack = config.asarUnpack as string[];
  assert.ok(included('dist/main/gis-worker.js', files));
  assert.ok(!included('dist/main/gis-worker.js.map', files));
  assert.ok(!included('node_modules/gdal-async/deps/libgdal/gdal/gcore/gdal.h', files));
  assert.ok(!included('node_modules/gdal-async/src/gdal_dataset.cpp', files));
  assert.ok(included('node_modules/gdal-async/deps/libproj/proj/data/proj.db', files));
  assert.ok(included('node_modules/gdal-async/lib/binding/electron-v45.5-linux-x64/gdal.node', files));
  assert.ok(!included('src-main/hosts/electron/electronMain.ts', files));
  for (const { file, where } of REQUIRED_RUNTIME_FILES) {
    assert.ok(included(file, files), `${file} packed`);
    if (where === 'unpacked') assert.ok(unpacked(file, asarUnpack), `${file} unpacked`);
  }
  // Electron's build of better-sqlite3 and the unpacked programs' packages, wherever the packer puts them.
  assert.ok(unpacked('.electron-native/better_sqlite3.node', asarUnpack));
  assert.ok(unpacked('node_modules/@mapbox/node-pre-gyp/lib/node-pre-gyp.js', asarUnpack));
  assert.ok(unpacked('node_modules/gdal-async/node_modules/@mapbox/node-pre-gyp/lib/node-pre-gyp.js', asarUnpack));
  assert.ok(!unpacked('node_modules/react/index.js', asarUnpack));
});

test('dist config: dependencyClosure finds packages as Node does (nested before hoisted) and skips build-only ones', () => {
  const top = mkdtempSync(join(tmpdir(), 'mapwright-closure-'));
  try {
    const pkg = (dir: string, body: object): void => {
      mkdirSync(join(top, dir), { recursive: true });
      writeFileSync(join(top, dir, 'package.json'), JSON.stringify(body));
    };
    pkg('node_modules/a', { name: 'a', dependencies: { b: '1', nan: '1' }, optionalDependencies: { gone: '1' } });
    pkg('node_modules/a/node_modules/b', { name: 'b', dependencies: { c: '1' } });
    pkg('node_modules/b', { name: 'b' });
    pkg('node_modules/c', { name: 'c' });
    assert.deepEqual(dependencyClosure(top, ['a']), [
      { name: 'a', dir: 'node_modules/a' },
      { name: 'b', dir: 'node_modules/a/node_modules/b' },
      { name: 'c', dir: 'node_modules/c' },
    ]);
    assert.deepEqual(unpackPatterns(top, ['a']), ['**/node_modules/a/**', '**/node_modules/b/**', '**/node_modules/c/**']);
    rmSync(join(top, 'node_modules', 'c'), { recursive: true });
    assert.throws(() => dependencyClosure(top, ['a']), /c is not installed/);
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
  // The real tree: what the worker and the GDAL broker import resolves, natives included.
  const names = dependencyClosure(ROOT, DISK_PROCESS_PACKAGES).map((p) => p.name);
  for (const name of [...DISK_PROCESS_PACKAGES, '@mapbox/node-pre-gyp', '@petamoriken/float16', 'xmlbuilder2'])
    assert.ok(names.includes(name), name);
  assert.ok(!names.includes('node-gyp'));
});

test('dist config: bareImports reads esbuild output', () => {
  const source = [
    'import{a as b}from"gdal-async";',
    'import x from "@maplibre/vt-pbf";',
    'const y = require("@modelcontextprotocol/sdk/client/index.js");',
    'await import("zod");',
    'import "node:fs"; require("path"); import z from "./local.js";',
    'const s = "a" + from" || lower === "',
  ].join('\n');
  assert.deepEqual(bareImports(source), ['@maplibre/vt-pbf', '@modelcontextprotocol/sdk', 'gdal-async', 'zod']);
});

test('dist config: the built bundles import only production dependencies; unpacked programs only unpacked ones', { skip: noDist }, () => {
  assert.deepEqual(checkBundleImports().problems, []);
});

test('dist config: the native-rebuild script parses, has --help and a dry run that needs no runtime', () => {
  const result = checkNativeScript();
  assert.deepEqual(result.problems, []);
});

test('dist config: the release workflow parses and calls only npm scripts that exist', () => {
  assert.deepEqual(checkWorkflow().problems, []);
  const workflow = parseYaml(readFileSync(join(ROOT, WORKFLOW), 'utf8')) as { jobs: Record<string, { 'runs-on': string }> };
  const runners = Object.values(workflow.jobs).map((j) => j['runs-on']);
  for (const os of ['ubuntu', 'macos', 'windows'])
    assert.ok(
      runners.some((r) => r.startsWith(os)),
      os,
    );
  const calls = workflowNpmScripts(workflow);
  assert.ok(calls.some((c) => c.job === 'electron-e2e' && c.script === 'test:electron'));
  for (const job of ['linux', 'macos', 'windows'])
    assert.ok(
      calls.some((c) => c.job === job && c.script === 'dist'),
      job,
    );
  assert.deepEqual(
    workflowNpmScripts({ jobs: { j: { steps: [{ run: 'npm ci && npm run --silent build\nnpm test' }, { uses: 'x' }] } } }).map(
      (c) => c.script,
    ),
    ['build', 'test'],
  );
});

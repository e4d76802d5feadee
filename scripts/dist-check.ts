/**
 * `npm run dist:check`: everything about the packages that can be checked without Electron's
 * runtime (which cannot be downloaded on every machine). After `npm run build` it
 *   1. validates electron-builder.config.ts with electron-builder's own schema validation;
 *   2. resolves every `files` and `asarUnpack` pattern against the tree: a pattern that
 *      matches nothing fails (the Electron-ABI build is reported as pending where the native
 *      rebuild has not run), and so does a runtime file the app needs that would be left out
 *      of the package or left inside the archive when it must be on disk;
 *   3. checks that every package the built bundles import is a production dependency (only
 *      those are packed) and that the unpacked programs' imports are unpacked too;
 *   4. checks the native-rebuild script (`bash -n`, `--help`, `--dry-run`);
 *   5. checks the release workflow: it parses, and every `npm run X` it calls exists;
 *   6. with `--pack` (npm run dist:check passes it): packs the app with electron-builder itself
 *      (`--dir`, a stand-in Electron distribution, so nothing is downloaded) into a temporary
 *      folder and checks the result — what is in app.asar, what is in app.asar.unpacked, and
 *      that Node resolves the unpacked programs' imports there.
 * Exits 1 with the list of problems. scripts/distConfig.test.ts runs 1–5 without building.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import config, {
  DISK_PROCESS_PACKAGES,
  ELECTRON_NATIVE_PATTERNS,
  REQUIRED_RUNTIME_FILES,
  dependencyClosure,
} from '../electron-builder.config.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WORKFLOW = '.github/workflows/release.yml';
export const NATIVE_SCRIPT = 'scripts/setup-electron-native.sh';

const requireFromBuilder = createRequire(join(ROOT, 'node_modules', 'app-builder-lib', 'package.json'));
// electron-builder's own matcher (minimatch 10 with dot: true, as in app-builder-lib/out/fileMatcher.js).
const { Minimatch } = requireFromBuilder('minimatch') as {
  Minimatch: new (pattern: string, options: object) => { match(path: string): boolean };
};
const matchers = new Map<string, { match(path: string): boolean }>();
function match(file: string, pattern: string): boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) matchers.set(pattern, (matcher = new Minimatch(pattern, { dot: true })));
  return matcher.match(file);
}

export interface CheckResult {
  problems: string[];
  notes: string[];
}

/** The config as electron-builder itself loads `--config electron-builder.config.ts` (jiti). */
export async function loadWithBuilder(root: string = ROOT): Promise<object> {
  const { getConfig } = requireFromBuilder('./out/util/config/load.js') as {
    getConfig: (
      request: { packageKey: string; configFilename: string; projectDir: string },
      path: string,
    ) => Promise<{ result: object } | null>;
  };
  const loaded = await getConfig(
    { packageKey: 'build', configFilename: 'electron-builder', projectDir: root },
    'electron-builder.config.ts',
  );
  if (!loaded) throw new Error('electron-builder found no configuration in electron-builder.config.ts');
  return loaded.result;
}

/** electron-builder's validation: its JSON schema (scheme.json) plus its deprecation checks. */
export async function validateConfig(cfg: object = config): Promise<CheckResult> {
  const { validateConfiguration } = requireFromBuilder('./out/util/config/config.js') as {
    validateConfiguration: (c: object, logger: { isEnabled: boolean; add: () => void }) => Promise<void>;
  };
  try {
    await validateConfiguration(cfg, { isEnabled: false, add: () => undefined });
    return { problems: [], notes: ['config: valid against electron-builder 26 scheme.json'] };
  } catch (error) {
    return { problems: [`config: ${error instanceof Error ? error.message : String(error)}`], notes: [] };
  }
}

/** Every file under `root` ('/'-separated, relative), skipping VCS folders and build output. */
export function listTree(root: string = ROOT): string[] {
  const out: string[] = [];
  const skip = new Set(['.git', 'release']);
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!(rel === '' && skip.has(entry.name))) walk(join(dir, entry.name), path);
      } else out.push(path);
    }
  };
  walk(root, '');
  return out;
}

/**
 * Whether `file` is packed: like electron-builder's `files`, the last pattern that matches
 * decides. Production dependencies are added by electron-builder itself, through the same
 * filters: a file under node_modules/ starts as included (the dependency check is separate).
 */
export function included(file: string, patterns: string[]): boolean {
  let result = false;
  for (const pattern of file.startsWith('node_modules/') ? ['node_modules/**', ...patterns] : patterns) {
    const negated = pattern.startsWith('!');
    if (match(file, negated ? pattern.slice(1) : pattern)) result = !negated;
  }
  return result;
}

export function unpacked(file: string, patterns: string[]): boolean {
  return patterns.some((pattern) => match(file, pattern));
}

function patternsOf(cfg: typeof config): { files: string[]; asarUnpack: string[] } {
  return { files: (cfg.files as string[]) ?? [], asarUnpack: (cfg.asarUnpack as string[]) ?? [] };
}

/**
 * Resolves the patterns against the tree. `tree` lists the repository's files; node_modules is
 * included because electron-builder packs production dependencies through the same filters.
 */
export function checkPatterns(
  tree: string[],
  cfg: typeof config = config,
  options: { distBuilt: boolean } = { distBuilt: true },
): CheckResult {
  const problems: string[] = [];
  const notes: string[] = [];
  const { files, asarUnpack } = patternsOf(cfg);
  const nativeBuilt = tree.some((f) => f.startsWith('.electron-native/'));
  for (const [kind, list] of [
    ['files', files],
    ['asarUnpack', asarUnpack],
  ] as const) {
    for (const pattern of list) {
      const negated = pattern.startsWith('!');
      const glob = negated ? pattern.slice(1) : pattern;
      if (!options.distBuilt && glob.startsWith('dist/')) continue;
      const hits = tree.filter((f) => match(f, glob)).length;
      if (hits > 0) continue;
      if (ELECTRON_NATIVE_PATTERNS.has(pattern) && !nativeBuilt)
        notes.push(
          `${kind}: ${pattern} matches nothing yet: it is made by ${NATIVE_SCRIPT}, which needs the Electron runtime (npm run dist runs it)`,
        );
      else if (negated) notes.push(`${kind}: exclusion ${pattern} matches nothing here`);
      else problems.push(`${kind}: ${pattern} matches nothing in the tree`);
    }
  }
  for (const { file, where } of REQUIRED_RUNTIME_FILES) {
    if (!options.distBuilt && file.startsWith('dist/')) continue;
    if (!tree.includes(file))
      problems.push(`runtime file ${file} is missing from the tree${file.startsWith('dist/') ? ' (run npm run build)' : ''}`);
    else if (!included(file, files)) problems.push(`runtime file ${file} is left out by \`files\``);
    else if (where === 'unpacked' && !unpacked(file, asarUnpack))
      problems.push(`runtime file ${file} must be on disk but no asarUnpack pattern matches it`);
  }
  // gdal-async refuses to load without its data folders (lib/gdal.js).
  for (const dir of ['node_modules/gdal-async/deps/libgdal/gdal/data/', 'node_modules/gdal-async/deps/libproj/proj/data/']) {
    const inside = tree.filter((f) => f.startsWith(dir));
    if (!inside.length) problems.push(`${dir} is missing: gdal-async will not load`);
    else if (!inside.every((f) => included(f, files) && unpacked(f, asarUnpack))) problems.push(`${dir} is not packed and unpacked whole`);
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { type?: string };
  if (pkg.type === 'module' && !unpacked('package.json', asarUnpack))
    problems.push('package.json must be unpacked: it makes the unpacked dist/main/gis-worker.js an ES module');
  const packedCount = tree.filter((f) => !f.startsWith('node_modules/') && included(f, files)).length;
  notes.push(`files: ${packedCount} of the app's own files packed (node_modules: production dependencies through the same filters)`);
  return { problems, notes };
}

/** Bare module names imported by a built bundle (`from "x"`, `require("x")`, `import("x")`), Node built-ins excluded. */
export function bareImports(source: string): string[] {
  const names = new Set<string>();
  const pattern = /(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)["']([^"'./][^"']*)["']/g;
  for (const m of source.matchAll(pattern)) {
    const spec = m[1]!;
    if (spec.startsWith('node:')) continue;
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    if (/^[a-z0-9@][\w.@/-]*$/i.test(name) && !BUILTINS.has(name)) names.add(name);
  }
  return [...names].sort();
}
const BUILTINS = new Set(createRequire(import.meta.url)('node:module').builtinModules as string[]);

/** The built bundles' imports: production dependencies only; the unpacked programs' imports are unpacked. */
export function checkBundleImports(root: string = ROOT): CheckResult {
  const problems: string[] = [];
  const notes: string[] = [];
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const production = new Set([...Object.keys(pkg.dependencies ?? {}), 'electron']);
  const bundles = [
    'dist/main/electron-main.cjs',
    'dist/main/gis-worker.js',
    'dist/main/gdal-broker.mjs',
    'dist/main/plugin-host.mjs',
    'dist/main/code-host.mjs',
    'dist/preload/preload.cjs',
  ];
  const onDisk = new Set(['dist/main/gis-worker.js', 'dist/main/gdal-broker.mjs', 'dist/main/plugin-host.mjs', 'dist/main/code-host.mjs']);
  for (const bundle of bundles) {
    const file = join(root, bundle);
    if (!existsSync(file)) {
      problems.push(`${bundle} is missing (run npm run build)`);
      continue;
    }
    const imports = bareImports(readFileSync(file, 'utf8'));
    for (const name of imports) {
      if (!production.has(name)) problems.push(`${bundle} imports ${name}, which is not a production dependency: it would not be packed`);
      if (onDisk.has(bundle) && !DISK_PROCESS_PACKAGES.includes(name))
        problems.push(
          `${bundle} runs from app.asar.unpacked and imports ${name}: add it to DISK_PROCESS_PACKAGES in electron-builder.config.ts`,
        );
    }
    notes.push(`imports: ${bundle} → ${imports.length ? imports.join(', ') : 'none'}`);
  }
  return { problems, notes };
}

/** `bash -n`, `--help` and `--dry-run` of the native-rebuild script (no runtime needed). */
export function checkNativeScript(root: string = ROOT): CheckResult {
  const problems: string[] = [];
  const notes: string[] = [];
  const script = join(root, NATIVE_SCRIPT);
  const bash = spawnSync('bash', ['--version'], { encoding: 'utf8' });
  if (bash.error) return { problems, notes: [`${NATIVE_SCRIPT}: not checked, no bash on this machine`] };
  for (const args of [
    ['-n', script],
    [script, '--help'],
    [script, '--dry-run'],
  ]) {
    const run = spawnSync('bash', args, { cwd: root, encoding: 'utf8', timeout: 30_000 });
    const label = `bash ${args.map((a) => (a === script ? NATIVE_SCRIPT : a)).join(' ')}`;
    if (run.status !== 0) problems.push(`${label} failed (${run.status}): ${(run.stderr || run.stdout).trim()}`);
    else notes.push(`${label}: ok${args[1] === '--dry-run' ? `\n    ${run.stdout.trim().split('\n').join('\n    ')}` : ''}`);
  }
  const bogus = spawnSync('bash', [script, '--no-such-option'], { cwd: root, encoding: 'utf8' });
  if (bogus.status !== 2) problems.push(`${NATIVE_SCRIPT} accepts an unknown option (exit ${bogus.status})`);
  return { problems, notes };
}

/** Every `npm run X` (and `npm test`) in the workflow's `run:` steps, with the job it is in. */
export function workflowNpmScripts(workflow: unknown): { job: string; script: string }[] {
  const found: { job: string; script: string }[] = [];
  const jobs = (workflow as { jobs?: Record<string, { steps?: { run?: string }[] }> }).jobs ?? {};
  for (const [job, spec] of Object.entries(jobs)) {
    for (const step of spec.steps ?? []) {
      if (typeof step.run !== 'string') continue;
      for (const m of step.run.matchAll(/\bnpm\s+(?:run(?:-script)?\s+(?:--\S+\s+)*([\w:.-]+)|(test|start)\b)/g))
        found.push({ job, script: (m[1] ?? m[2])! });
    }
  }
  return found;
}

export function checkWorkflow(root: string = ROOT): CheckResult {
  const problems: string[] = [];
  const notes: string[] = [];
  const file = join(root, WORKFLOW);
  if (!existsSync(file)) return { problems: [`${WORKFLOW} is missing`], notes };
  let workflow: unknown;
  try {
    workflow = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    return { problems: [`${WORKFLOW} does not parse: ${error instanceof Error ? error.message : String(error)}`], notes };
  }
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const calls = workflowNpmScripts(workflow);
  for (const { job, script } of calls)
    if (!(script in scripts)) problems.push(`${WORKFLOW}: job ${job} runs npm script '${script}', which package.json does not have`);
  for (const needed of ['dist', 'test:electron'])
    if (!calls.some((c) => c.script === needed)) problems.push(`${WORKFLOW} never runs npm run ${needed}`);
  const local = readFileSync(file, 'utf8').match(/(?:bash|tsx)\s+(scripts\/[\w./-]+)/g) ?? [];
  for (const ref of local) {
    const path = ref.split(/\s+/)[1]!;
    if (!existsSync(join(root, path))) problems.push(`${WORKFLOW} calls ${path}, which does not exist`);
  }
  notes.push(`workflow: parses; npm scripts called: ${[...new Set(calls.map((c) => c.script))].join(', ')}`);
  return { problems, notes };
}

/**
 * Packs with electron-builder (`--dir`, current platform) around a stand-in Electron
 * distribution, then inspects the result. The stand-in is an empty executable: nothing runs,
 * but the packing — config loading, the dependency collector, files, asar, asarUnpack — is
 * electron-builder's own.
 */
export function checkPackedLayout(root: string = ROOT): CheckResult {
  const problems: string[] = [];
  const notes: string[] = [];
  if (process.platform !== 'linux')
    return { problems, notes: ['pack: the stand-in Electron distribution is made for Linux only; skipped'] };
  const work = mkdtempSync(join(tmpdir(), 'mapwright-dist-check-'));
  try {
    const fakeElectron = join(work, 'electron-dist');
    mkdirSync(join(fakeElectron, 'resources'), { recursive: true });
    writeFileSync(join(fakeElectron, 'electron'), '#!/bin/sh\necho "stand-in Electron (scripts/dist-check.ts)" >&2\nexit 1\n');
    chmodSync(join(fakeElectron, 'electron'), 0o755);
    const version = (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string })
      .version;
    writeFileSync(join(fakeElectron, 'version'), version);
    const out = join(work, 'release');
    const builder = join(root, 'node_modules', '.bin', 'electron-builder');
    const run = spawnSync(
      builder,
      [
        '--config',
        'electron-builder.config.ts',
        '--linux',
        'dir',
        '--publish',
        'never',
        `-c.electronDist=${fakeElectron}`,
        `-c.directories.output=${out}`,
      ],
      { cwd: root, encoding: 'utf8', timeout: 300_000, env: { ...process.env, CI: 'true' } },
    );
    if (run.status !== 0) return { problems: [`electron-builder --dir failed (${run.status}):\n${run.stdout}\n${run.stderr}`], notes };
    const resources = join(out, 'linux-unpacked', 'resources');
    const asarFile = join(resources, 'app.asar');
    const diskRoot = join(resources, 'app.asar.unpacked');
    const asar = requireFromBuilder('@electron/asar') as { listPackage: (archive: string, options: { isPack: boolean }) => string[] };
    const inAsar = new Set(asar.listPackage(asarFile, { isPack: false }).map((f) => f.replace(/\\/g, '/').replace(/^\//, '')));
    for (const { file, where } of REQUIRED_RUNTIME_FILES) {
      if (!inAsar.has(file)) problems.push(`packed: ${file} is not in app.asar`);
      if (where === 'unpacked' && !existsSync(join(diskRoot, file))) problems.push(`packed: ${file} is not in app.asar.unpacked`);
    }
    const maps = [...inAsar].filter((f) => f.startsWith('dist/') && f.endsWith('.map'));
    if (maps.length) problems.push(`packed: source maps were packed (${maps.slice(0, 3).join(', ')})`);
    const gdalSources = [...inAsar].filter(
      (f) => f.startsWith('node_modules/gdal-async/deps/') && !/\/(data)\//.test(f) && /\.(c|cpp|h|hpp)$/.test(f),
    );
    if (gdalSources.length) problems.push(`packed: gdal-async's bundled GDAL sources were packed (${gdalSources.length} files)`);
    // Node resolves the unpacked programs' imports from app.asar.unpacked/node_modules only.
    try {
      const closure = dependencyClosure(diskRoot, DISK_PROCESS_PACKAGES);
      notes.push(`pack: the unpacked programs' ${closure.length} packages resolve inside app.asar.unpacked`);
    } catch (error) {
      problems.push(`packed: in app.asar.unpacked, ${error instanceof Error ? error.message : String(error)}`);
    }
    const binding = join(diskRoot, 'node_modules', 'gdal-async', 'lib', 'binding');
    const abis = existsSync(binding) ? readdirSync(binding) : [];
    if (!abis.length) problems.push('packed: gdal-async has no native binding');
    else if (!abis.some((a) => a.startsWith('electron-')))
      notes.push(
        `pack: gdal-async bindings ${abis.join(', ')} — no Electron build yet (${NATIVE_SCRIPT} makes it where the runtime exists)`,
      );
    if (!existsSync(join(diskRoot, '.electron-native', 'better_sqlite3.node')))
      notes.push('pack: no .electron-native/better_sqlite3.node (made by the native rebuild where the runtime exists)');
    notes.push(
      `pack: electron-builder packed for Electron ${version}: ${inAsar.size} entries in app.asar; ${sizeOf(asarFile)} MB archive, ${sizeOf(diskRoot)} MB unpacked`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { problems, notes };
}

function sizeOf(path: string): string {
  const du = spawnSync('du', ['-sm', path], { encoding: 'utf8' });
  return du.status === 0 ? du.stdout.split(/\s+/)[0]! : '?';
}

async function main(): Promise<void> {
  const pack = process.argv.includes('--pack');
  const results: [string, CheckResult][] = [
    ['config', await validateConfig(await loadWithBuilder())],
    ['patterns', checkPatterns(listTree())],
    ['imports', checkBundleImports()],
    ['native script', checkNativeScript()],
    ['workflow', checkWorkflow()],
  ];
  if (pack) results.push(['pack', checkPackedLayout()]);
  let failed = 0;
  for (const [name, result] of results) {
    for (const note of result.notes) process.stdout.write(`  ${note}\n`);
    for (const problem of result.problems) process.stderr.write(`✗ ${name}: ${problem}\n`);
    failed += result.problems.length;
  }
  if (!pack) process.stdout.write('  pack: not run (pass --pack to pack with electron-builder around a stand-in Electron)\n');
  process.stdout.write(
    failed
      ? `dist-check: ${failed} problem(s)\n`
      : 'dist-check: ok (the Electron runtime itself is exercised only by the release workflow)\n',
  );
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`dist-check: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/**
 * electron-builder configuration (`npm run dist`; electron-builder 26 loads TypeScript configs
 * with jiti: `electron-builder --config electron-builder.config.ts`). The app's own packaging
 * data (appId, files, asarUnpack) lives in electron.config.ts; this file adds the targets and
 * what must stay on disk, and exports the lists `scripts/dist-check.ts` verifies.
 *
 * Layout of a packaged app (resources/):
 *   app.asar            the main bundle, preload, renderer, production node_modules
 *   app.asar.unpacked/  everything a separate process or native code opens from the disk:
 *                       the GIS worker, plugin host, code host and GDAL broker bundles with
 *                       package.json (the worker is a `.js` ES module: "type" comes from it),
 *                       the native modules and the packages those processes import,
 *                       assets/, skills/, plugins/ (watched, sandbox-bound, read by GDAL)
 * src-main/hosts/electron/appPaths.ts points the app at app.asar.unpacked when packaged.
 */
import type { Configuration } from 'electron-builder';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from './electron.config.js';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * Packages imported by the programs that run from app.asar.unpacked (the GIS worker, the
 * GDAL broker): Node resolves their imports from app.asar.unpacked/node_modules, never from
 * inside the archive, so these and their runtime dependencies are unpacked too.
 * `dist-check` compares this list with the bare imports of the built bundles.
 */
export const DISK_PROCESS_PACKAGES = ['gdal-async', '@maplibre/geojson-vt', '@maplibre/vt-pbf', 'zod'];

/** Dependencies declared by packages but only used to build them (node-gyp, headers, docs). */
export const BUILD_ONLY_DEPENDENCIES = new Set(['nan', 'node-gyp', 'yatag', 'prebuild-install', 'node-addon-api']);

/**
 * Built files the packaged app needs at run time, relative to the repository root, and where
 * each must end up ('asar' may still be unpacked; 'unpacked' must be a real file on disk).
 */
export const REQUIRED_RUNTIME_FILES: { file: string; where: 'asar' | 'unpacked' }[] = [
  { file: 'package.json', where: 'unpacked' },
  { file: 'dist/main/electron-main.cjs', where: 'asar' },
  { file: 'dist/preload/preload.cjs', where: 'asar' },
  { file: 'dist/renderer/index.html', where: 'asar' },
  { file: 'dist/renderer/app.js', where: 'asar' },
  { file: 'dist/renderer/app.css', where: 'asar' },
  { file: 'dist/main/python/run_snippet.py', where: 'asar' },
  { file: 'dist/main/gis-worker.js', where: 'unpacked' },
  { file: 'dist/main/plugin-host.mjs', where: 'unpacked' },
  { file: 'dist/main/code-host.mjs', where: 'unpacked' },
  { file: 'dist/main/gdal-broker.mjs', where: 'unpacked' },
  { file: 'assets/basemap/countries.geojson', where: 'unpacked' },
  { file: 'skills/layers/SKILL.md', where: 'unpacked' },
  { file: 'plugins/hello/plugin.yaml', where: 'unpacked' },
  { file: 'node_modules/gdal-async/lib/gdal.js', where: 'unpacked' },
  { file: 'node_modules/better-sqlite3/lib/index.js', where: 'unpacked' },
];

/** Patterns that match only after `scripts/setup-electron-native.sh` ran with an Electron runtime. */
export const ELECTRON_NATIVE_PATTERNS = new Set(['.electron-native/**']);

interface PackageJson {
  name?: string;
  type?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Where Node finds package `name` when required from `fromDir`: the nearest node_modules up to `top`. */
export function resolvePackageDir(top: string, fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (resolve(dir) === resolve(top) || dirname(dir) === dir) return undefined;
  }
}

/**
 * The installed packages `names` and their runtime dependencies, each found the way Node would
 * find it from its dependent, as `{ name, dir }` (dir relative to `top`, '/'-separated). Missing
 * optional dependencies are skipped; a missing required one throws.
 */
export function dependencyClosure(top: string, names: string[]): { name: string; dir: string }[] {
  const found = new Map<string, string>();
  const queue = names.map((name) => ({ name, from: top, optional: false }));
  while (queue.length) {
    const next = queue.shift()!;
    const dir = resolvePackageDir(top, next.from, next.name);
    if (!dir) {
      if (next.optional) continue;
      throw new Error(`${next.name} is not installed where ${relative(top, next.from) || '.'} would find it`);
    }
    const rel = relative(top, dir).split('\\').join('/');
    if (found.has(rel)) continue;
    found.set(rel, next.name);
    const pkg = readPackage(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {}))
      if (!BUILD_ONLY_DEPENDENCIES.has(dep)) queue.push({ name: dep, from: dir, optional: false });
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) queue.push({ name: dep, from: dir, optional: true });
  }
  return [...found].map(([dir, name]) => ({ name, dir })).sort((a, b) => a.dir.localeCompare(b.dir));
}

/**
 * asarUnpack patterns for those packages, by name wherever they sit: electron-builder lays
 * node_modules out again when it packs (it hoisted gdal-async's nested @mapbox/node-pre-gyp to
 * the top here), so the checkout's paths are not the package's.
 */
export function unpackPatterns(top: string, names: string[]): string[] {
  const packageNames = [...new Set(dependencyClosure(top, names).map((p) => p.name))].sort();
  return packageNames.map((name) => `**/node_modules/${name}/**`);
}

/**
 * Inside gdal-async only these parts of `deps/` are read at run time (lib/gdal.js refuses to
 * load without the first two); the rest is the bundled GDAL's source, 200+ MB.
 */
const GDAL_ASYNC_RUNTIME_DATA = ['deps/libgdal/gdal/data', 'deps/libproj/proj/data', 'deps/libgdal/gdal/frmts/grib/data'];

export function builderConfig(top: string = root): Configuration {
  const diskPackages = unpackPatterns(top, DISK_PROCESS_PACKAGES);
  return {
    appId: app.appId,
    productName: app.productName,
    copyright: 'Copyright © Mapwright contributors (MIT)',
    directories: { output: 'release' },
    // scripts/setup-electron-native.sh builds the Electron-ABI modules beside the Node ones
    // (npm run dist calls it); electron-builder's own rebuild would replace the Node builds.
    npmRebuild: false,
    nodeGypRebuild: false,
    buildDependenciesFromSource: false,
    files: [
      ...app.files,
      '!**/*.map',
      // Build inputs of the native modules: sources, object files, bundled GDAL sources.
      '!node_modules/gdal-async/{src,build,doc,bench,include,scripts}/**',
      '!node_modules/gdal-async/deps/**',
      ...GDAL_ASYNC_RUNTIME_DATA.map((dir) => `node_modules/gdal-async/${dir}/**`),
      '!node_modules/better-sqlite3/{src,deps}/**',
      '!node_modules/better-sqlite3/build/Release/{obj,obj.target,.deps}/**',
      '!node_modules/better-sqlite3/build/{deps,test_extension}/**',
    ],
    asar: true,
    asarUnpack: [...new Set([...app.asarUnpack, ...diskPackages])],
    linux: {
      target: ['AppImage', 'deb'],
      category: 'Science',
      executableName: 'mapwright',
      synopsis: 'Desktop GIS assistant',
      maintainer: 'Mapwright contributors <mapwright@users.noreply.github.com>',
    },
    deb: {
      // gdal-async is linked against the system GDAL (shared_gdal): the release workflow builds
      // the Linux packages on Debian 12, whose GDAL 3.6 is libgdal32 (gdal-data comes with it).
      // The rest is electron-builder's default list (setting `depends` replaces it).
      depends: [
        'libgdal32',
        'libgtk-3-0',
        'libnotify4',
        'libnss3',
        'libxss1',
        'libxtst6',
        'xdg-utils',
        'libatspi2.0-0',
        'libuuid1',
        'libsecret-1-0',
      ],
      // Plugin commands' sandbox, the terrain plugin's GDAL tools, code.run_python.
      recommends: ['bubblewrap', 'gdal-bin', 'python3-gdal', 'poppler-utils'],
    },
    mac: { target: ['dmg'], category: 'public.app-category.productivity' },
    dmg: { title: 'Mapwright ${version}' },
    win: { target: ['nsis'] },
    nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
    publish: null,
  };
}

export default builderConfig();

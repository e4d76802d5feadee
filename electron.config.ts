/**
 * Build configuration: what `scripts/build.ts` bundles with esbuild, and the app metadata a
 * packager needs. Data only — no imports, so the build script and tests can read it freely.
 * Paths are relative to the repository root.
 */

export interface BundleSpec {
  name: 'web-host' | 'electron-main' | 'gis-worker' | 'preload' | 'renderer';
  entry: string;
  outfile: string;
  platform: 'node' | 'browser';
  format: 'esm' | 'cjs';
  /** esbuild's `packages`: 'external' leaves every npm import to be resolved at run time. */
  packages: 'external' | 'bundle';
  /** Further modules left unbundled (esbuild's `external`). */
  external: string[];
  /** esbuild `target`: the oldest runtime that loads the bundle. */
  target: string;
}

export const bundles: BundleSpec[] = [
  {
    // Plain Node (the web host and the e2e tests run here on Node 20).
    name: 'web-host',
    entry: 'src-main/hosts/web/webMain.ts',
    outfile: 'dist/main/web-host.js',
    platform: 'node',
    format: 'esm',
    packages: 'external',
    external: [],
    target: 'node20',
  },
  {
    // CommonJS: Electron's main entry; native modules and Electron itself stay outside.
    name: 'electron-main',
    entry: 'src-main/hosts/electron/electronMain.ts',
    outfile: 'dist/main/electron-main.cjs',
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    external: ['electron'],
    target: 'node22',
  },
  {
    // Forked by the web host (Node 20) and started as a utility process by Electron.
    name: 'gis-worker',
    entry: 'src-main/gis-worker/workerMain.ts',
    outfile: 'dist/main/gis-worker.js',
    platform: 'node',
    format: 'esm',
    packages: 'external',
    external: [],
    target: 'node20',
  },
  {
    // A sandboxed preload may only require('electron'): everything else is bundled in.
    name: 'preload',
    entry: 'src-preload/preload.ts',
    outfile: 'dist/preload/preload.cjs',
    platform: 'node',
    format: 'cjs',
    packages: 'bundle',
    external: ['electron'],
    target: 'node22',
  },
  {
    // Served by both hosts from dist/renderer/ (with index.html beside it).
    name: 'renderer',
    entry: 'src-renderer/main.tsx',
    outfile: 'dist/renderer/app.js',
    platform: 'browser',
    format: 'esm',
    packages: 'bundle',
    external: [],
    target: 'chrome120',
  },
];

/** Packaging metadata (electron-builder's field names). */
export const app = {
  appId: 'app.mapwright',
  productName: 'Mapwright',
  main: 'dist/main/electron-main.cjs',
  /** Besides the production dependencies, which packagers add themselves. */
  files: ['package.json', 'dist/**', 'assets/**', 'skills/**', 'plugins/**', '.electron-native/**'],
  /** Native code cannot be loaded from inside an asar archive. */
  // The plugin host and code.run_js's two children run as plain Node programs (and under bubblewrap): real files.
  // So does the GIS worker (a utility process that hands paths to GDAL); it is a `.js` ES module, so
  // package.json ("type": "module") sits beside it. assets/, skills/ and plugins/ are watched, bound
  // into sandboxes and read by GDAL: real folders too (src-main/hosts/electron/appPaths.ts). The
  // packages those processes import are added by electron-builder.config.ts.
  asarUnpack: [
    '.electron-native/**',
    'node_modules/better-sqlite3/**',
    'node_modules/gdal-async/**',
    'package.json',
    'dist/main/gis-worker.js',
    'dist/main/plugin-host.mjs',
    'dist/main/code-host.mjs',
    'dist/main/gdal-broker.mjs',
    'assets/**',
    'skills/**',
    'plugins/**',
  ],
};

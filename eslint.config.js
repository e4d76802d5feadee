// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Lint enforces the layers of DESIGN.md (STYLE item 1): imports flow one way.
 *   src-shared  ← everyone; imports no runtime (only zod, and types)
 *   tools       → src-shared only
 *   src-renderer→ src-shared (never main, preload or Node)
 *   src-preload → electron + bridge names only
 *   src-main    → src-shared, tools; only src-main/gis-worker imports gdal-async
 */
const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'url', 'worker_threads'];

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noGdal = { group: ['gdal-async', 'gdal-async/*'], message: 'Only the GIS worker (src-main/gis-worker) may import gdal-async.' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.electron-native/**', 'e2e/screenshots/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    ignores: ['src-shared/**/*.test.ts'],
    rules: restrict([
      {
        group: ['**/src-main/**', '**/src-renderer/**', '**/src-preload/**', '../../tools/**'],
        message: 'src-shared is the bottom layer: it imports no other layer.',
      },
      {
        group: [...NODE_BUILTINS, 'electron', 'react', 'react-dom', 'better-sqlite3', 'ws'],
        message: 'src-shared imports no runtime: no Node, DOM libraries, Electron or React.',
      },
      { group: ['maplibre-gl'], allowTypeImports: true, message: 'src-shared may use maplibre-gl types only.' },
      noGdal,
    ]),
  },
  {
    files: ['tools/**/*.ts'],
    ignores: ['tools/**/*.test.ts'],
    rules: restrict([
      {
        group: ['**/src-main/**', '**/src-renderer/**', '**/src-preload/**'],
        message: 'Tools import only src-shared; they reach the app through their declared handles.',
      },
      { group: [...NODE_BUILTINS, 'electron', 'better-sqlite3'], message: 'Tools reach files and GDAL through handles, not Node.' },
      noGdal,
    ]),
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: ['src-renderer/**/*.test.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([
      { group: ['**/src-main/**', '**/tools/**'], message: 'The renderer never imports main: it talks to it over the bridge.' },
      { group: ['**/src-preload/**'], allowTypeImports: true, message: 'The renderer may use the preload API type only.' },
      { group: [...NODE_BUILTINS, 'electron', 'better-sqlite3', 'ws'], message: 'The renderer is a sandboxed web page.' },
      noGdal,
    ]),
  },
  {
    files: ['src-preload/**/*.ts'],
    rules: restrict([
      {
        group: [
          '**/src-main/**',
          '**/src-renderer/**',
          '**/tools/**',
          'zod',
          '**/src-shared/domain/**',
          '**/src-shared/style/**',
          '**/src-shared/tools/**',
          '**/src-shared/bridge/contract*',
          '**/src-shared/bridge/ws*',
        ],
        allowTypeImports: true,
        message: 'The preload is a thin bridge: electron and the bridge names only (types aside).',
      },
      noGdal,
    ]),
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/gis-worker/**'],
    rules: restrict([
      {
        group: ['**/src-renderer/**', '**/src-preload/**'],
        allowTypeImports: true,
        message: 'Main does not import the renderer or the preload.',
      },
      noGdal,
    ]),
  },
  {
    files: ['src-main/gis-worker/**/*.ts'],
    rules: restrict([
      {
        group: ['**/src-renderer/**', '**/src-preload/**', '**/tools/**', '**/agent/**', '**/store/**', 'better-sqlite3', 'electron'],
        message: 'The GIS worker knows GDAL and the worker protocol, nothing of the app.',
      },
    ]),
  },
  {
    files: ['e2e/model-server/**/*.ts'],
    ignores: ['e2e/model-server/**/*.test.ts'],
    rules: restrict([
      { group: ['**/src-*/**', '**/tools/**'], message: 'The scripted model server is an independent peer: Node built-ins only.' },
    ]),
  },
);

import { build, type BuildOptions } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles, type BundleSpec } from '../electron.config.js';
import { buildCodeHosts } from '../src-main/code/buildCodeHosts.js';
import { buildPluginHost } from '../src-main/plugins/plugin-host/buildPluginHost.js';

/**
 * Builds every bundle described in electron.config.ts with esbuild, plus the renderer's
 * index.html. Quiet on success (the web host's one-line contract depends on it); errors
 * and warnings go to stderr.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * In a CommonJS bundle `import.meta.url` is empty: code that finds files beside itself
 * (pythonRunner.ts, codeRunner.ts) would get nothing. It becomes the bundle's own file URL.
 */
const CJS_META = {
  define: { 'import.meta.url': '__mapwrightModuleUrl' },
  banner: { js: "const __mapwrightModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

export function options(spec: BundleSpec): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [spec.entry],
    outfile: spec.outfile,
    bundle: true,
    platform: spec.platform,
    format: spec.format,
    target: spec.target,
    packages: spec.packages === 'external' ? 'external' : undefined,
    external: spec.external,
    sourcemap: true,
    logLevel: 'warning',
    jsx: 'automatic',
    loader: { '.css': 'css' },
    define: spec.platform === 'browser' ? { 'process.env.NODE_ENV': '"production"' } : spec.format === 'cjs' ? CJS_META.define : {},
    ...(spec.format === 'cjs' ? { banner: CJS_META.banner } : {}),
    minify: spec.platform === 'browser',
    legalComments: 'none',
  };
}

export async function buildAll(): Promise<void> {
  // The module-plugin host is bundled whole (see buildPluginHost.ts): dist/main/plugin-host.mjs;
  // code.run_js's snippet host and GDAL broker likewise (buildCodeHosts.ts).
  await Promise.all([...bundles.map((spec) => build(options(spec))), buildPluginHost(), buildCodeHosts()]);
  await mkdir(join(root, 'dist', 'renderer'), { recursive: true });
  await copyFile(join(root, 'src-renderer', 'index.html'), join(root, 'dist', 'renderer', 'index.html'));
  // code.run_python's runner beside the bundle that reads it (pythonRunner.ts looks there first).
  await mkdir(join(root, 'dist', 'main', 'python'), { recursive: true });
  await copyFile(join(root, 'src-main', 'code', 'python', 'run_snippet.py'), join(root, 'dist', 'main', 'python', 'run_snippet.py'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll().catch((err: unknown) => {
    process.stderr.write(`Build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

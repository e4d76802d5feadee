import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Bundles the plugin host into one self-contained ESM file (zod and the protocol inlined).
 * Unlike the GIS worker it cannot run from source through `--import tsx` in development: under
 * Node's permission model the host may read only itself, the plugin and the outputs folder, and
 * tsx would need node_modules, its cache and worker threads. So development and tests bundle
 * it too (a few hundred milliseconds), and the built app ships `dist/main/plugin-host.mjs`.
 *
 * Build-time only (esbuild is a dev dependency): scripts/build.ts and tests import this, the
 * app never does.
 */

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const PLUGIN_HOST_SOURCE = join(REPO_ROOT, 'src-main', 'plugins', 'plugin-host', 'pluginHostProcess.ts');
/** Where `npm run build` puts it (beside gis-worker.js). */
export const PLUGIN_HOST_OUTFILE = join(REPO_ROOT, 'dist', 'main', 'plugin-host.mjs');

export async function buildPluginHost(outfile: string = PLUGIN_HOST_OUTFILE): Promise<string> {
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [PLUGIN_HOST_SOURCE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Node 20 (web host) and Electron's Node 22 both load it.
    target: 'node20',
    packages: 'bundle',
    logLevel: 'warning',
    legalComments: 'none',
  });
  return outfile;
}

import { build } from 'esbuild';
import { join } from 'node:path';
import { REPO_ROOT } from '../plugins/plugin-host/buildPluginHost.js';
import { CODE_HOST_FILE, GDAL_BROKER_FILE } from './codeHostFiles.js';

/**
 * Bundles the two children of a `code.run_js` run into dist/main (like the plugin host, see
 * buildPluginHost.ts):
 *  - `code-host.mjs`, the snippet host: self-contained (zod inlined), because under Node's
 *    permission model it may read nothing but itself and the run's folder;
 *  - `gdal-broker.mjs`: gdal-async stays external (a native addon, found in node_modules
 *    beside dist/, as the GIS worker finds it).
 *
 * Build-time only: scripts/build.ts and tests import this, the app never does.
 */

export const CODE_DIST_DIR = join(REPO_ROOT, 'dist', 'main');

export async function buildCodeHosts(outDir: string = CODE_DIST_DIR): Promise<{ snippetHost: string; broker: string }> {
  const common = {
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Node 20 (web host) and Electron's Node 22 both load them.
    target: 'node20',
    logLevel: 'warning',
    legalComments: 'none',
  } as const;
  const snippetHost = join(outDir, CODE_HOST_FILE);
  const broker = join(outDir, GDAL_BROKER_FILE);
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(REPO_ROOT, 'src-main', 'code-host', 'snippetHost.ts')],
      outfile: snippetHost,
      packages: 'bundle',
    }),
    build({
      ...common,
      entryPoints: [join(REPO_ROOT, 'src-main', 'code-host', 'gdalBroker.ts')],
      outfile: broker,
      external: ['gdal-async'],
    }),
  ]);
  return { snippetHost, broker };
}

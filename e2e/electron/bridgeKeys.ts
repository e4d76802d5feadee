import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles } from '../../electron.config.js';
import { methods } from '../../src-shared/bridge/contract.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The keys `window.mapwright` must have, from the bridge contract: one function per contract
 * method (named after it), `on` for the events and `pathForFile` for dropped files — never a
 * generic invoke.
 */
export function expectedBridgeKeys(): string[] {
  return [...Object.keys(methods), 'on', 'pathForFile'].sort();
}

/**
 * What the preload exposes, without Electron: src-preload/preload.ts bundled as the build
 * bundles it (electron.config.ts), then run against a stand-in `electron` module that records
 * each `contextBridge.exposeInMainWorld(name, api)`. Any other `require` fails, as it would
 * in a sandboxed preload.
 */
export async function preloadExposure(): Promise<{ world: string; keys: string[]; functions: boolean }[]> {
  const spec = bundles.find((b) => b.name === 'preload');
  if (!spec) throw new Error('electron.config.ts has no preload bundle');
  const out = await build({
    absWorkingDir: repoRoot,
    entryPoints: [spec.entry],
    bundle: true,
    platform: spec.platform,
    format: spec.format,
    target: spec.target,
    external: spec.external,
    write: false,
    logLevel: 'silent',
  });
  const exposed: { world: string; keys: string[]; functions: boolean }[] = [];
  const electron = {
    contextBridge: {
      exposeInMainWorld(world: string, api: Record<string, unknown>) {
        exposed.push({ world, keys: Object.keys(api).sort(), functions: Object.values(api).every((v) => typeof v === 'function') });
      },
    },
    ipcRenderer: { invoke: async () => undefined, on: () => undefined, removeListener: () => undefined },
  };
  const requireInPreload = (id: string) => {
    if (id === 'electron') return electron;
    throw new Error(`the preload requires "${id}"; a sandboxed preload may only require electron`);
  };
  const module = { exports: {} };
  new Function('require', 'module', 'exports', out.outputFiles[0]!.text)(requireInPreload, module, module.exports);
  return exposed;
}

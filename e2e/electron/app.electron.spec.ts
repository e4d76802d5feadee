/**
 * The Electron variant of the smoke test: the real main process, preload and
 * `mapwright://` protocol, with a scripted model. It skips, saying why, where the Electron
 * runtime binary is missing (it cannot be downloaded on every machine; the web-host specs
 * cover the same app there) or where Linux has no display (run it under `xvfb-run`). The
 * check that the preload exposes exactly the contract's keys is a unit test
 * (bridgeKeys.test.ts), so it runs everywhere with `npm test`.
 *
 *   npm run build && node --import tsx --test e2e/electron/app.electron.spec.ts
 *
 * With MAPWRIGHT_E2E_ELECTRON_APP set to a packed app's executable (e.g.
 * release/linux-unpacked/mapwright from `electron-builder --dir`), the same test runs against
 * the package instead: its own app.asar, unpacked worker and native modules (the release
 * workflow does this; see README "Packages").
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { _electron } from 'playwright-core';
import { startScriptedModelServer } from '../model-server/scriptedModelServer.js';
import { expectedBridgeKeys } from './bridgeKeys.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const mainBundle = path.join(repoRoot, 'dist', 'main', 'electron-main.cjs');
const REPLY = 'Hello from the scripted model.';

/** The Electron binary, found the way the `electron` package does — without its download fallback. */
function electronExecutable(): string | undefined {
  const pkg = path.join(repoRoot, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkg, 'dist');
  const executable = path.join(dist, readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : undefined;
}

const packagedApp = process.env.MAPWRIGHT_E2E_ELECTRON_APP ? path.resolve(process.env.MAPWRIGHT_E2E_ELECTRON_APP) : undefined;
const executablePath = packagedApp ?? electronExecutable();
const skip = !executablePath
  ? 'no Electron runtime binary in node_modules/electron/dist (cannot be downloaded here); the web-host e2e specs cover the app'
  : packagedApp && !existsSync(packagedApp)
    ? `MAPWRIGHT_E2E_ELECTRON_APP=${packagedApp} does not exist`
    : process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
      ? 'no display for Electron; run under xvfb-run'
      : false;

test('Electron: the app shows the map and answers a chat message', { skip, timeout: 120_000 }, async (t) => {
  assert.ok(executablePath);
  if (!packagedApp) assert.ok(existsSync(mainBundle), `${mainBundle} is missing: run npm run build first`);

  const home = mkdtempSync(path.join(tmpdir(), 'mapwright-electron-'));
  const model = await startScriptedModelServer();
  model.script([{ text: REPLY }]);
  const app = await _electron.launch({
    executablePath,
    // Software WebGL, so MapLibre renders without a GPU (as in the web-host specs).
    // A packed app starts its own main from app.asar; the checkout's runtime is given the bundle.
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', ...(packagedApp ? [] : [mainBundle])],
    cwd: packagedApp ? path.dirname(packagedApp) : repoRoot,
    env: {
      ...(process.env as Record<string, string>),
      MAPWRIGHT_HOME: home,
      MAPWRIGHT_MODEL_URL: model.url,
      MAPWRIGHT_MODEL: 'scripted-model',
      GDAL_PAM_ENABLED: 'NO',
    },
  });
  t.after(async () => {
    await app.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  });

  const page = await app.firstWindow();
  await page.getByTestId('map').waitFor({ timeout: 30_000 });
  assert.match(page.url(), /^mapwright:\/\/app\//);
  // The bridge is one function per method plus `on`: no generic invoke reaches the page.
  const bridgeKeys = await page.evaluate(() => Object.keys(Reflect.get(window, 'mapwright') as object).sort());
  assert.deepEqual(bridgeKeys, expectedBridgeKeys());

  const input = page.getByTestId('chat-input');
  await input.fill('Say hello');
  await input.press('Enter');
  await page.getByTestId('chat-message').filter({ hasText: 'Say hello' }).waitFor();
  // The reply comes back through the push channel (event:message/upserted).
  await page.getByTestId('chat-message').filter({ hasText: REPLY }).waitFor({ timeout: 30_000 });
  assert.equal(model.requests.length, 1);
});

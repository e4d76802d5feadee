/**
 * The Electron main entry (bundled to `dist/main/electron-main.cjs`). A host adds only a
 * transport: the `mapwright://app/` protocol for the renderer's files and data, IPC for the
 * bridge, a utility process for the GIS worker. Everything else is `createProjectSession` (createServices per open project).
 *
 * Trust (windowSecurity.ts): the window is sandboxed and isolated, may not leave
 * `mapwright://app/`, open windows or get permissions, and runs under a strict CSP; IPC answers
 * only the app's top frame.
 */
import { app, BrowserWindow, dialog, net, protocol, safeStorage, session } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProjectSession } from '../../composition/projectSession.js';
import type { Services } from '../../composition/services.js';
import { safeStorageSecretStore } from '../../settings/secretStore.js';
import { appDataDir } from '../appDataDir.js';
import { contentSecurityPolicy } from '../contentSecurityPolicy.js';
import { appPaths } from './appPaths.js';
import { connectPushEvents, registerIpc } from './ipcRouter.js';
import { electronSqliteBinding } from './nativeBindings.js';
import { utilityLauncher } from './utilityLauncher.js';
import {
  APP_HOST,
  APP_SCHEME,
  APP_SCHEME_REGISTRATION,
  APP_URL,
  installSessionGuards,
  installWindowGuards,
  isTrustedFrame,
  windowSecurityOptions,
} from './windowSecurity.js';

/** Path prefixes served by `services.serveData`; everything else is a built renderer file. */
const DATA_ROUTES = ['data/', 'tiles/', 'assets/'];
/** The web host's CSP; MapLibre fetches data and tiles from the app's own scheme. */
const CSP = contentSecurityPolicy(`${APP_SCHEME}:`);

// This file runs as dist/main/electron-main.cjs (CommonJS, so __dirname exists): the app
// root — the repository, or the packaged app's app.asar — is two folders up. Packaged, what
// must be on the disk comes from app.asar.unpacked (appPaths.ts).
const appRoot = path.resolve(__dirname, '..', '..');
const paths = appPaths(appRoot, app.isPackaged);
const rendererDir = paths.rendererDir;

// Before `ready`: every renderer sandboxed whatever its webPreferences say; the scheme's
// privileges (windowSecurity.ts says why these and no others).
app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_REGISTRATION]);

// Both hosts keep projects in appDataDir(). With MAPWRIGHT_HOME set (tests, portable use),
// Chromium's profile goes there too, so runs do not share local storage or caches.
if (process.env.MAPWRIGHT_HOME) app.setPath('userData', path.join(process.env.MAPWRIGHT_HOME, 'electron-profile'));

// Every WebContents (the window, DevTools, anything a page might open) gets the guards.
app.on('web-contents-created', (_event, contents) => installWindowGuards(contents));
app.on('window-all-closed', () => app.quit());
app.whenReady().then(start, fail);

async function start(): Promise<void> {
  // Before any page exists: no permission, no device, for anyone.
  installSessionGuards(session.defaultSession);
  const services = await createProjectSession({
    home: appDataDir(),
    host: 'electron',
    launchWorker: utilityLauncher(paths.workerEntry),
    dataBase: APP_URL,
    dataQuery: '',
    assetsDir: paths.assetsDir,
    sqliteNativeBinding: electronSqliteBinding(appRoot),
    // API keys encrypted with the OS keychain (safeStorage is usable once the app is ready).
    secretStore: safeStorageSecretStore(safeStorage, appDataDir()),
    // Module plugins' host is a Node program: Electron runs it as Node (ELECTRON_RUN_AS_NODE).
    pluginRuntime: { execPath: process.execPath, runAsNode: true },
    // The toolbar's Add data (issue #15): a path picked here is the person's own, given to main.
    chooseFiles: async () => {
      const owner = BrowserWindow.getFocusedWindow();
      const options: Electron.OpenDialogOptions = { title: 'Add data', properties: ['openFile', 'multiSelections'] };
      const picked = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? [] : picked.filePaths;
    },
  });

  protocol.handle(APP_SCHEME, (request) => serve(services, request));
  registerIpc(services, isTrustedFrame);

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    closed = true;
    event.preventDefault();
    services
      .close()
      .catch((error: unknown) => console.error('mapwright: closing services failed', error))
      .finally(() => app.quit());
  });

  const mainWindow = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Mapwright',
    webPreferences: windowSecurityOptions(paths.preload),
  });
  connectPushEvents(services, mainWindow.webContents, isTrustedFrame);
  await mainWindow.loadURL(`${APP_URL}index.html`);
}

function fail(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error('mapwright: start-up failed', message);
  dialog.showErrorBox('Mapwright could not start', message);
  app.exit(1);
}

async function serve(services: Services, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== APP_HOST || (request.method !== 'GET' && request.method !== 'HEAD')) return plain(404, 'not found');
  let route: string;
  try {
    route = decodeURIComponent(url.pathname.slice(1));
  } catch {
    return plain(400, 'bad path');
  }
  try {
    // Decoded, as the web host passes it; serveData only serves known layers and assets/.
    if (DATA_ROUTES.some((prefix) => route.startsWith(prefix))) {
      const ifNoneMatch = request.headers.get('if-none-match');
      const data = await services.serveData(route, ifNoneMatch ? { ifNoneMatch } : {});
      // A 304 has no body (the Response constructor refuses one).
      const body = data.status === 304 ? null : typeof data.body === 'string' ? data.body : new Uint8Array(data.body);
      // The route's ETag and Cache-Control (MapLibre reads the latter for tile expiry); no-store otherwise.
      const headers = new Headers({ 'cache-control': 'no-store' });
      for (const [name, value] of Object.entries(data.headers ?? {})) headers.set(name, value);
      headers.set('content-type', data.contentType);
      return new Response(body, { status: data.status, headers });
    }
    return await serveRendererFile(route === '' ? 'index.html' : route);
  } catch (error) {
    console.error(`mapwright: ${request.url}`, error);
    return plain(500, 'internal error');
  }
}

/** A file of the built renderer, confined to `dist/renderer/`, with the CSP attached. */
async function serveRendererFile(route: string): Promise<Response> {
  const file = path.resolve(rendererDir, route);
  if (!file.startsWith(rendererDir + path.sep)) return plain(404, 'not found');
  const found = await net.fetch(pathToFileURL(file).toString()).catch(() => undefined);
  if (!found?.ok) return plain(404, 'not found');
  const headers = new Headers(found.headers);
  headers.set('content-security-policy', CSP);
  return new Response(found.body, { status: 200, headers });
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

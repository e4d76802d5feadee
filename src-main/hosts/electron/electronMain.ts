/**
 * The Electron main entry (bundled to `dist/main/electron-main.cjs`). A host adds only a
 * transport: the `mapwright://app/` protocol for the renderer's files and data, IPC for the
 * bridge, a utility process for the GIS worker. Everything else is `createServices`.
 *
 * Trust: the window is sandboxed and isolated, may not leave `mapwright://app/`, open windows
 * or ask for permissions, and runs under a strict CSP; IPC answers only frames on the app.
 */
import { app, BrowserWindow, dialog, net, protocol, safeStorage, session, type WebContents, type WebFrameMain } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServices } from '../../composition/createServices.js';
import type { Services } from '../../composition/services.js';
import { safeStorageSecretStore } from '../../settings/secretStore.js';
import { appDataDir } from '../appDataDir.js';
import { contentSecurityPolicy } from '../contentSecurityPolicy.js';
import { connectPushEvents, registerIpc } from './ipcRouter.js';
import { electronSqliteBinding } from './nativeBindings.js';
import { utilityLauncher } from './utilityLauncher.js';

const SCHEME = 'mapwright';
const APP_URL = `${SCHEME}://app/`;
/** Path prefixes served by `services.serveData`; everything else is a built renderer file. */
const DATA_ROUTES = ['data/', 'tiles/', 'assets/'];
/** The web host's CSP; MapLibre fetches data and tiles from the app's own scheme. */
const CSP = contentSecurityPolicy(`${SCHEME}:`);

// This file runs as dist/main/electron-main.cjs (CommonJS, so __dirname exists): the app
// root — the repository, or the packaged app — is two folders up.
const appRoot = path.resolve(__dirname, '..', '..');
const rendererDir = path.join(appRoot, 'dist', 'renderer');

const isAppUrl = (url: string) => url.startsWith(APP_URL);
const isTrustedSender = (frame: WebFrameMain) => isAppUrl(frame.url);

// Privileges can only be granted before `ready`: standard + secure give the app a real origin
// (so 'self', fetch and CORS work for MapLibre's tile and GeoJSON requests).
protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

// Both hosts keep projects in appDataDir(). With MAPWRIGHT_HOME set (tests, portable use),
// Chromium's profile goes there too, so runs do not share local storage or caches.
if (process.env.MAPWRIGHT_HOME) app.setPath('userData', path.join(process.env.MAPWRIGHT_HOME, 'electron-profile'));

app.on('web-contents-created', (_event, contents) => harden(contents));
app.on('window-all-closed', () => app.quit());
app.whenReady().then(start, fail);

async function start(): Promise<void> {
  const services = await createServices({
    home: appDataDir(),
    host: 'electron',
    launchWorker: utilityLauncher(path.join(appRoot, 'dist', 'main', 'gis-worker.js')),
    dataBase: APP_URL,
    dataQuery: '',
    assetsDir: path.join(appRoot, 'assets'),
    sqliteNativeBinding: electronSqliteBinding(appRoot),
    // API keys encrypted with the OS keychain (safeStorage is usable once the app is ready).
    secretStore: safeStorageSecretStore(safeStorage, appDataDir()),
  });

  protocol.handle(SCHEME, (request) => serve(services, request));
  registerIpc(services, isTrustedSender);
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    closed = true;
    event.preventDefault();
    services.close().catch((error: unknown) => console.error('mapwright: closing services failed', error)).finally(() => app.quit());
  });

  const mainWindow = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Mapwright',
    webPreferences: {
      preload: path.join(appRoot, 'dist', 'preload', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  connectPushEvents(services, mainWindow.webContents, isTrustedSender);
  await mainWindow.loadURL(`${APP_URL}index.html`);
}

function fail(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error('mapwright: start-up failed', message);
  dialog.showErrorBox('Mapwright could not start', message);
  app.exit(1);
}

/** No navigation away from the app, no new windows, no <webview>. */
function harden(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

async function serve(services: Services, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== 'app' || (request.method !== 'GET' && request.method !== 'HEAD')) return plain(404, 'not found');
  let route: string;
  try {
    route = decodeURIComponent(url.pathname.slice(1));
  } catch {
    return plain(400, 'bad path');
  }
  try {
    // Decoded, as the web host passes it; serveData only serves known layers and assets/.
    if (DATA_ROUTES.some((prefix) => route.startsWith(prefix))) {
      const data = await services.serveData(route);
      const body = typeof data.body === 'string' ? data.body : new Uint8Array(data.body);
      return new Response(body, { status: data.status, headers: { 'content-type': data.contentType } });
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

import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../model-server/scriptedModelServer.js';
import { AppDriver } from './appDriver.js';
import { AttributeTableDriver } from './attributeTableDriver.js';
import { launchBrowser } from './browser.js';
import { ConversationDriver } from './conversationDriver.js';
import { PluginsDriver } from './pluginsDriver.js';
import { startWebHost, type RunningHost } from './webHost.js';

/** A page on the app, with its map loaded, and the drivers that speak to it. */
export interface OpenedApp {
  page: Page;
  app: AppDriver;
  table: AttributeTableDriver;
  conversations: ConversationDriver;
  plugins: PluginsDriver;
}

/** What a spec file shares across its tests: the session's model and one opened page. */
export interface SharedApp extends OpenedApp {
  model: ScriptedModelServer;
}

export interface AppSession {
  browser: Browser;
  model: ScriptedModelServer;
  /** The data folder (MAPWRIGHT_HOME) of this spec file. */
  home: string;
  host: RunningHost;
  /**
   * A new page on the running host, opened and with its map loaded. `beforeOpen` runs on the
   * page before it navigates (to listen to its responses or console from the start).
   */
  openApp(options?: { beforeOpen?: (page: Page) => void }): Promise<SharedApp>;
  /** Stops the host and starts it again on the same data folder (the page must reopen). */
  restartHost(): Promise<RunningHost>;
  /** Restarts the host and opens `app`'s page on it again. */
  restartHostAndReopen(app: AppDriver): Promise<void>;
  /**
   * Copies a plugin folder into `<home>/plugins/<folder>` while the app runs, as a person would;
   * it appears there whole (copied beside, then renamed in). Returns the installed folder.
   */
  installPlugin(source: string, folder?: string): string;
}

/** A new page in `browser` at the desktop size the specs use, opened on `url` with its map loaded. */
export async function openAppIn(browser: Browser, url: string, beforeOpen?: (page: Page) => void): Promise<OpenedApp> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  beforeOpen?.(page);
  const app = new AppDriver(page);
  await app.open(url);
  return {
    page,
    app,
    table: new AttributeTableDriver(page),
    conversations: new ConversationDriver(page),
    plugins: new PluginsDriver(page),
  };
}

/**
 * One spec file's world: Chromium, a scripted model, a fresh data folder and a web host,
 * started before its tests and torn down after them. `configureModel: false` starts the host
 * with no model, as a person would who has not set one up yet; `env` adds to the host's
 * environment (`MAPWRIGHT_MCP_HTTP`…).
 */
export function useAppSession(options: { configureModel?: boolean; homePrefix?: string; env?: Record<string, string> } = {}): AppSession {
  const session = {} as AppSession;
  const env = () => ({
    ...options.env,
    MAPWRIGHT_HOME: session.home,
    ...(options.configureModel === false ? {} : { MAPWRIGHT_MODEL_URL: session.model.url, MAPWRIGHT_MODEL: 'scripted' }),
  });
  before(async () => {
    session.browser = await launchBrowser();
    session.model = await startScriptedModelServer();
    session.home = mkdtempSync(join(tmpdir(), options.homePrefix ?? 'mapwright-e2e-'));
    session.host = await startWebHost(env());
  });
  after(async () => {
    await session.host?.stop();
    await session.browser?.close();
    await session.model?.close();
    if (session.home) rmSync(session.home, { recursive: true, force: true });
  });
  session.openApp = async (open = {}) => ({
    ...(await openAppIn(session.browser, session.host.url, open.beforeOpen)),
    model: session.model,
  });
  session.restartHost = async () => {
    await session.host.stop();
    session.host = await startWebHost(env());
    return session.host;
  };
  session.restartHostAndReopen = async (app) => {
    await app.open((await session.restartHost()).url);
  };
  session.installPlugin = (source, folder = basename(source)) => {
    const staging = mkdtempSync(join(session.home, '.plugin-copy-'));
    const target = join(session.home, 'plugins', folder);
    cpSync(source, join(staging, folder), { recursive: true });
    mkdirSync(join(session.home, 'plugins'), { recursive: true });
    renameSync(join(staging, folder), target);
    rmSync(staging, { recursive: true, force: true });
    return target;
  };
  return session;
}

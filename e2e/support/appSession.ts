import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../model-server/scriptedModelServer.js';
import { AppDriver } from './appDriver.js';
import { launchBrowser } from './browser.js';
import { startWebHost, type RunningHost } from './webHost.js';

export interface AppSession {
  browser: Browser;
  model: ScriptedModelServer;
  /** The data folder (MAPWRIGHT_HOME) of this spec file. */
  home: string;
  host: RunningHost;
  /** A new page on the running host, opened and with its map loaded. */
  openApp(): Promise<{ page: Page; app: AppDriver }>;
  /** Stops the host and starts it again on the same data folder (the page must reopen). */
  restartHost(): Promise<RunningHost>;
}

/**
 * One spec file's world: Chromium, a scripted model, a fresh data folder and a web host,
 * started before its tests and torn down after them. `configureModel: false` starts the host
 * with no model, as a person would who has not set one up yet.
 */
export function useAppSession(options: { configureModel?: boolean; homePrefix?: string } = {}): AppSession {
  const session = {} as AppSession;
  const env = () => ({
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
  session.openApp = async () => {
    const page = await session.browser.newPage({ viewport: { width: 1400, height: 860 } });
    const app = new AppDriver(page);
    await app.open(session.host.url);
    return { page, app };
  };
  session.restartHost = async () => {
    await session.host.stop();
    session.host = await startWebHost(env());
    return session.host;
  };
  return session;
}

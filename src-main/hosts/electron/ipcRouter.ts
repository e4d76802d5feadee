/**
 * Electron's transport for the bridge contract: one `ipcMain.handle` per method and a push
 * channel (`event:<name>`) per window. It parses nothing itself: `services.invoke` validates
 * every payload with the contract. It only decides who may talk: a frame showing the app.
 */
import { ipcMain, type WebContents, type WebFrameMain } from 'electron';
import type { Emit } from '../../../src-shared/bridge/contract.js';
import { METHOD_NAMES } from '../../../src-shared/bridge/names.js';
import type { Services } from '../../composition/services.js';
import { guardIpcHandler } from './ipcGuard.js';

/** Whether a frame shows the app: `isTrustedFrame` (windowSecurity.ts), the app's top frame. */
export type IsTrustedSender = (frame: WebFrameMain) => boolean;

/** Registers the method handlers. Call once, after `app` is ready. */
export function registerIpc(services: Services, isTrustedSender: IsTrustedSender): void {
  for (const name of METHOD_NAMES) {
    ipcMain.handle(
      name,
      guardIpcHandler(name, isTrustedSender, (payload) => services.invoke(name, payload)),
    );
  }
}

/**
 * Gives a window's contents a push channel while it shows the app. A navigation, reload or
 * crash disconnects it, which rejects its pending approvals (DESIGN §4); the next load
 * connects again.
 */
export function connectPushEvents(services: Services, contents: WebContents, isTrustedSender: IsTrustedSender): void {
  let disconnect: (() => void) | undefined;
  const drop = () => {
    disconnect?.();
    disconnect = undefined;
  };
  const emit: Emit = (name, payload) => {
    if (!contents.isDestroyed()) contents.send(`event:${name}`, payload);
  };

  contents.on('did-finish-load', () => {
    drop();
    if (isTrustedSender(contents.mainFrame)) disconnect = services.connect(emit);
  });
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) drop();
  });
  contents.on('render-process-gone', drop);
  contents.once('destroyed', drop);
}

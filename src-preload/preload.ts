/**
 * The Electron preload: exposes `window.mapwright` (a `PreloadApi`) and nothing else.
 *
 * Trust: the page is not trusted. It gets one function per contract method and a subscription
 * to the contract's events — no generic invoke, no channel names of its own choosing, no
 * `ipcRenderer`, no Node. Main checks the sender and validates every payload again.
 * Bundled to CommonJS on its own: a sandboxed preload may only `require('electron')`, so
 * this file imports the zod-free name lists, never the contract.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { EVENT_NAMES, METHOD_NAMES, type EventName } from '../src-shared/bridge/names.js';
import type { PreloadApi } from './preloadApi.js';

const eventNames: readonly string[] = EVENT_NAMES;

function on(name: EventName, listener: (payload: unknown) => void): () => void {
  if (!eventNames.includes(name)) throw new Error(`mapwright.on: unknown event "${String(name)}"`);
  if (typeof listener !== 'function') throw new TypeError('mapwright.on: listener must be a function');
  const channel = `event:${name}`;
  // The IpcRendererEvent stays here: it carries `sender`, which must not reach the page.
  const relay = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(channel, relay);
  return () => {
    ipcRenderer.removeListener(channel, relay);
  };
}

const methods = Object.fromEntries(METHOD_NAMES.map((name) => [name, (params: unknown) => ipcRenderer.invoke(name, params)]));

// Drag-and-drop of files onto the map (issue #15): only a file the person dropped has a path.
const pathForFile = (file: File): string => webUtils.getPathForFile(file);

const api = { ...methods, on, pathForFile } as PreloadApi;

contextBridge.exposeInMainWorld('mapwright', api);

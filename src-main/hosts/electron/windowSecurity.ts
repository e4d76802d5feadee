/**
 * The Electron window's security settings, as plain data and functions over small interfaces
 * (no runtime import of `electron`), so they are tested without the Electron binary
 * (windowSecurity.test.ts). electronMain.ts only applies them.
 *
 * Trust model: the renderer shows only the app's own files from `mapwright://app/` and is not
 * trusted. It runs sandboxed and context-isolated without Node, may not leave the app (no
 * navigation, redirect, new window or <webview>), gets no permission or device, and talks to
 * main only through the preload's bridge, whose IPC answers only the app's main frame.
 */
import type { CustomScheme, WebPreferences } from 'electron';

export const APP_SCHEME = 'mapwright';
export const APP_HOST = 'app';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/`;

/**
 * The scheme's privileges (registered before `ready`), no more than the app needs:
 * `standard` gives it a real origin (relative URLs, 'self', local storage), `secure` a secure
 * context, `supportFetchAPI` lets MapLibre fetch() tiles and GeoJSON. Everything the page loads
 * is same-origin (its blob: workers included), so the scheme is not `corsEnabled` (that would
 * let any other origin read project data from it); it does not `bypassCSP`, needs no `stream`
 * (no media), no service workers and no code cache.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
} as const satisfies NonNullable<CustomScheme['privileges']>;

export const APP_SCHEME_REGISTRATION: CustomScheme = { scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } };

/**
 * Whether a URL is a page of the app: `mapwright://app/…`, nothing else — no other host, no
 * credentials, no other scheme. Unparsable is no.
 */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}

/** A frame as IPC sees it (Electron's WebFrameMain fits). */
export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
}

/** Whether IPC may answer a frame: the app's top-level frame (it has no subframes). */
export function isTrustedFrame(frame: FrameLike): boolean {
  return frame.parent === null && isAppUrl(frame.url);
}

/** The window's webPreferences: every security-relevant option spelled out, Electron's defaults included. */
export function windowSecurityOptions(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    plugins: false,
    navigateOnDragDrop: false,
    // A page stuck in a loop of alert()s can be silenced.
    safeDialogs: true,
  };
}

/** Permission requests: never granted (the app needs no camera, location, notifications…). */
export function denyPermissionRequest(_contents: unknown, _permission: string, callback: (granted: boolean) => void): void {
  callback(false);
}

/** Permission checks (synchronous queries, e.g. navigator.permissions, clipboard): always no. */
export function denyPermissionCheck(): boolean {
  return false;
}

/** Device permissions (HID, serial, USB): always no. */
export function denyDevicePermission(): boolean {
  return false;
}

/** The event object Electron passes to the listeners below. */
export interface GuardEvent {
  preventDefault(): void;
  /** The target, on navigation and redirect events (Electron ≥ 25). */
  readonly url?: string;
}

/** The part of a WebContents the guards use (Electron's WebContents fits). */
export interface GuardedContents {
  on(event: string, listener: (event: GuardEvent, ...args: never[]) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** The part of a Session the guards use (Electron's Session fits). */
export interface GuardedSession {
  setPermissionRequestHandler(handler: typeof denyPermissionRequest): void;
  setPermissionCheckHandler(handler: typeof denyPermissionCheck): void;
  setDevicePermissionHandler(handler: typeof denyDevicePermission): void;
}

/** Navigation events whose target must be the app; the rest are refused. */
export const NAVIGATION_EVENTS = ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const;

/**
 * Hardens one WebContents (call for every one, from `web-contents-created`): a navigation or
 * redirect of any frame to anything but the app is cancelled, a <webview> is never attached,
 * window.open and target=_blank open nothing, a Web Bluetooth chooser picks no device (Electron
 * would pick the first one when nobody answers).
 */
export function installWindowGuards(contents: GuardedContents): void {
  for (const name of NAVIGATION_EVENTS) {
    // Before Electron 25 the URL came as the second argument; without one, refuse.
    contents.on(name, (event: GuardEvent, legacyUrl?: unknown) => {
      const url = typeof event.url === 'string' ? event.url : typeof legacyUrl === 'string' ? legacyUrl : '';
      if (!isAppUrl(url)) event.preventDefault();
    });
  }
  contents.on('will-attach-webview', (event: GuardEvent) => event.preventDefault());
  contents.on('select-bluetooth-device', (event: GuardEvent, _devices?: unknown, callback?: unknown) => {
    event.preventDefault();
    if (typeof callback === 'function') (callback as (deviceId: string) => void)('');
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Denies every permission request and check, and every device, for a session. */
export function installSessionGuards(session: GuardedSession): void {
  session.setPermissionRequestHandler(denyPermissionRequest);
  session.setPermissionCheckHandler(denyPermissionCheck);
  session.setDevicePermissionHandler(denyDevicePermission);
}

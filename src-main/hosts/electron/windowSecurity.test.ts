/**
 * The Electron window's security settings against Electron's security checklist, without the
 * Electron runtime: the settings are data and the guards are driven through fakes of the
 * WebContents / Session surface they use.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentSecurityPolicy } from '../contentSecurityPolicy.js';
import { guardIpcHandler } from './ipcGuard.js';
import {
  APP_SCHEME,
  APP_SCHEME_REGISTRATION,
  APP_URL,
  denyPermissionCheck,
  denyPermissionRequest,
  type GuardEvent,
  type GuardedContents,
  type GuardedSession,
  installSessionGuards,
  installWindowGuards,
  isAppUrl,
  isTrustedFrame,
  NAVIGATION_EVENTS,
  windowSecurityOptions,
} from './windowSecurity.js';

type Listener = (event: GuardEvent, ...args: unknown[]) => void;

class FakeContents implements GuardedContents {
  readonly listeners = new Map<string, Listener[]>();
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  on(event: string, listener: (event: GuardEvent, ...args: never[]) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as Listener]);
    return this;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Emits like Electron; true when a listener called preventDefault. */
  emit(name: string, event: { url?: string }, ...args: unknown[]): boolean {
    let prevented = false;
    const e: GuardEvent = { ...event, preventDefault: () => (prevented = true) };
    for (const l of this.listeners.get(name) ?? []) l(e, ...args);
    return prevented;
  }
}

function guarded(): FakeContents {
  const contents = new FakeContents();
  installWindowGuards(contents);
  return contents;
}

describe('isAppUrl', () => {
  test('the app’s pages are app URLs', () => {
    for (const url of [
      APP_URL,
      `${APP_URL}index.html`,
      `${APP_URL}index.html#layers`,
      `${APP_URL}data/x?y=1`,
      'MAPWRIGHT://app/index.html',
    ]) {
      assert.equal(isAppUrl(url), true, url);
    }
  });
  test('anything else is not: other hosts, credentials, look-alikes, other schemes, garbage', () => {
    for (const url of [
      'mapwright://evil/',
      'mapwright://app.evil.com/',
      'mapwright://appx/',
      'mapwright://app@evil/',
      'mapwright://user:pw@app/',
      'mapwright:app/',
      'mapwright:/app/',
      'https://app/',
      'https://example.com/?u=mapwright://app/',
      'http://127.0.0.1:8080/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'blob:mapwright://app/1234',
      'about:blank',
      'devtools://devtools/bundled/inspector.html',
      '',
      'not a url',
    ]) {
      assert.equal(isAppUrl(url), false, url);
    }
  });
});

describe('window webPreferences', () => {
  const prefs = windowSecurityOptions('/app/dist/preload/preload.cjs');
  test('isolated, sandboxed, no Node anywhere, web security on', () => {
    assert.equal(prefs.preload, '/app/dist/preload/preload.cjs');
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.webSecurity, true);
  });
  test('no insecure content, experimental or Blink features, <webview>, plugins, drag-and-drop navigation', () => {
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.experimentalFeatures, false);
    assert.equal(prefs.enableBlinkFeatures, undefined);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.plugins, false);
    assert.equal(prefs.navigateOnDragDrop, false);
    assert.equal(prefs.additionalArguments, undefined);
    assert.equal(prefs.session, undefined);
    assert.equal(prefs.partition, undefined);
  });
});

describe('the app scheme', () => {
  test('standard, secure, fetch: nothing more', () => {
    assert.equal(APP_SCHEME_REGISTRATION.scheme, APP_SCHEME);
    assert.deepEqual(APP_SCHEME_REGISTRATION.privileges, { standard: true, secure: true, supportFetchAPI: true });
  });
});

describe('the CSP served with the app’s files', () => {
  const directives = new Map(
    contentSecurityPolicy(`${APP_SCHEME}:`)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
  test('scripts only from the app; no eval, no inline script', () => {
    assert.deepEqual(directives.get('default-src'), ["'self'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('worker-src'), ['blob:']);
  });
  test('no plugins, frames, forms, <base> or being framed', () => {
    for (const name of ['object-src', 'frame-src', 'form-action', 'base-uri', 'frame-ancestors']) {
      assert.deepEqual(directives.get(name), ["'none'"], name);
    }
  });
  test('connections only to the app', () => {
    assert.deepEqual(directives.get('connect-src'), ["'self'", `${APP_SCHEME}:`]);
  });
});

describe('installWindowGuards', () => {
  test('navigation, frame navigation and redirects stay on the app', () => {
    const contents = guarded();
    for (const name of NAVIGATION_EVENTS) {
      assert.equal(contents.emit(name, { url: `${APP_URL}index.html` }), false, `${name} to the app`);
      for (const url of ['https://example.com/', 'file:///etc/passwd', 'mapwright://evil/', 'javascript:alert(1)']) {
        assert.equal(contents.emit(name, { url }), true, `${name} to ${url}`);
      }
    }
  });
  test('a navigation event without a URL is refused; the old second-argument URL is honoured', () => {
    const contents = guarded();
    assert.equal(contents.emit('will-navigate', {}), true);
    assert.equal(contents.emit('will-navigate', {}, 'https://example.com/'), true);
    assert.equal(contents.emit('will-navigate', {}, `${APP_URL}index.html`), false);
  });
  test('no <webview> is attached', () => {
    assert.equal(guarded().emit('will-attach-webview', {}, {}, { src: 'https://example.com/' }), true);
  });
  test('window.open / target=_blank open nothing, app URL or not', () => {
    const contents = guarded();
    assert.ok(contents.openHandler);
    for (const url of ['https://example.com/', `${APP_URL}index.html`, 'file:///etc/passwd']) {
      assert.deepEqual(contents.openHandler({ url }), { action: 'deny' });
    }
  });
  test('a Web Bluetooth chooser selects no device', () => {
    const chosen: string[] = [];
    const prevented = guarded().emit('select-bluetooth-device', {}, [{ deviceId: 'a' }], (id: string) => chosen.push(id));
    assert.equal(prevented, true);
    assert.deepEqual(chosen, ['']);
  });
});

describe('installSessionGuards', () => {
  test('every permission request, check and device is denied', () => {
    const installed: Partial<Record<keyof GuardedSession, unknown>> = {};
    const session: GuardedSession = {
      setPermissionRequestHandler: (h) => (installed.setPermissionRequestHandler = h),
      setPermissionCheckHandler: (h) => (installed.setPermissionCheckHandler = h),
      setDevicePermissionHandler: (h) => (installed.setDevicePermissionHandler = h),
    };
    installSessionGuards(session);
    assert.equal(installed.setPermissionRequestHandler, denyPermissionRequest);
    assert.equal(installed.setPermissionCheckHandler, denyPermissionCheck);
    const request = installed.setPermissionRequestHandler as typeof denyPermissionRequest;
    const check = installed.setPermissionCheckHandler as typeof denyPermissionCheck;
    const device = installed.setDevicePermissionHandler as () => boolean;
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'clipboard-sanitized-write',
      'fullscreen',
      'openExternal',
      'hid',
      'serial',
      'usb',
      'unknown',
    ]) {
      const answers: boolean[] = [];
      request({}, permission, (granted) => answers.push(granted));
      assert.deepEqual(answers, [false], permission);
      assert.equal(check(), false, permission);
    }
    assert.equal(device(), false);
  });
});

describe('IPC sender check', () => {
  const top = (url: string) => ({ url, parent: null });
  test('the trusted sender is the app’s top frame only', () => {
    assert.equal(isTrustedFrame(top(`${APP_URL}index.html`)), true);
    assert.equal(isTrustedFrame(top('https://example.com/')), false);
    assert.equal(isTrustedFrame(top('mapwright://evil/')), false);
    assert.equal(isTrustedFrame({ url: `${APP_URL}index.html`, parent: top(`${APP_URL}index.html`) }), false, 'a subframe');
  });
  test('calls from anything else are refused before the payload is handled', () => {
    const handled: unknown[] = [];
    const handler = guardIpcHandler('project/get', isTrustedFrame, (payload) => {
      handled.push(payload);
      return 'ok';
    });
    assert.equal(handler({ senderFrame: top(`${APP_URL}index.html`) }, { a: 1 }), 'ok');
    for (const senderFrame of [null, top('https://example.com/'), { url: `${APP_URL}`, parent: {} }]) {
      assert.throws(() => handler({ senderFrame }, { b: 2 }), /project\/get: refused, the sender is not the app/);
    }
    assert.deepEqual(handled, [{ a: 1 }]);
  });
});

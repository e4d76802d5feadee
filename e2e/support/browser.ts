import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium with the flags that make WebGL (SwiftShader) work headless here. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.MAPWRIGHT_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/**
 * Where the Electron host finds its files. In the repository (`npm start`) everything is under
 * the checkout. In a packaged app the main bundle runs from `resources/app.asar`, and what a
 * separate process, a sandbox, a file watcher or GDAL must open from the disk is in
 * `resources/app.asar.unpacked` (electron-builder.config.ts unpacks it): the GIS worker,
 * assets/, skills/ and plugins/ (createServices finds skills/, plugins/ and dist/main beside
 * assetsDir). Pure: `appRoot` and `isPackaged` come from the caller (`app.isPackaged`).
 */
import path from 'node:path';

export interface AppPaths {
  /** The app's root as Electron sees it: the checkout, or …/resources/app.asar. */
  appRoot: string;
  /** The same root on the real disk: the checkout, or …/resources/app.asar.unpacked. */
  diskRoot: string;
  /** The built renderer (served through the app's protocol; read through Electron's asar support). */
  rendererDir: string;
  preload: string;
  /** The GIS worker bundle, started as a utility process: a real file. */
  workerEntry: string;
  /** Basemap and glyphs; skills/, plugins/ and dist/main are its siblings. */
  assetsDir: string;
}

export function appPaths(appRoot: string, isPackaged: boolean): AppPaths {
  const diskRoot = isPackaged ? unpackedRoot(appRoot) : appRoot;
  return {
    appRoot,
    diskRoot,
    rendererDir: path.join(appRoot, 'dist', 'renderer'),
    preload: path.join(appRoot, 'dist', 'preload', 'preload.cjs'),
    workerEntry: path.join(diskRoot, 'dist', 'main', 'gis-worker.js'),
    assetsDir: path.join(diskRoot, 'assets'),
  };
}

/** `…/app.asar` → `…/app.asar.unpacked`; any other root (an unpacked `app/` folder) is already on disk. */
export function unpackedRoot(appRoot: string): string {
  return appRoot.replace(/\.asar([\\/]?)$/, '.asar.unpacked$1');
}

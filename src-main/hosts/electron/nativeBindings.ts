/**
 * Native modules built for Electron's ABI. node_modules holds the Node builds (web host,
 * tests); `scripts/setup-electron-native.sh` puts Electron builds beside them. gdal-async
 * picks its own (`lib/binding/electron-v…`); better-sqlite3 has a single build folder, so its
 * Electron build lives in `.electron-native/` and is handed to the store as `nativeBinding`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Path of the Electron build of better-sqlite3 under `appRoot`, or undefined when there is
 * none (then better-sqlite3 loads its default build, which fails under Electron with a
 * NODE_MODULE_VERSION error unless node_modules was rebuilt for Electron).
 */
export function electronSqliteBinding(appRoot: string): string | undefined {
  // Packaged, appRoot is …/app.asar; native code is only loadable from app.asar.unpacked.
  const root = appRoot.replace(/\.asar$/, '.asar.unpacked');
  const file = path.join(root, '.electron-native', 'better_sqlite3.node');
  return existsSync(file) ? file : undefined;
}

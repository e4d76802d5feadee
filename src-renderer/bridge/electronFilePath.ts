import type { PreloadApi } from '../../src-preload/preloadApi.js';

/**
 * The real path of a dropped file under Electron (the preload's `webUtils.getPathForFile`), or
 * null in the web host, where the browser gives bytes only.
 */
export function electronFilePath(file: File, win: Window = window): string | null {
  const api = (win as Window & { mapwright?: Partial<PreloadApi> }).mapwright;
  if (!api?.pathForFile) return null;
  return api.pathForFile(file) || null;
}

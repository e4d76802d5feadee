import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The data folder: MAPWRIGHT_HOME if set, else the platform's app-data folder — the same
 * place Electron's `app.getPath('userData')` would use, so both hosts share one project.
 */
export function appDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.MAPWRIGHT_HOME) return env.MAPWRIGHT_HOME;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Mapwright');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Mapwright');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Mapwright');
}

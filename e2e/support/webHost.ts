import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const gisFixtures = resolve(repoRoot, '..', 'shared', 'fixtures', 'gis');

export interface RunningHost {
  url: string;
  process: ChildProcess;
  stderr: () => string;
  /** Graceful stop (SIGTERM), as a person closing the app. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
}

/**
 * Starts the built web host (`dist/main/web-host.js`, built by `npm run build`) the way
 * `npm run web -- --port 0` does, and reads its one printed line for the URL.
 */
export async function startWebHost(env: Record<string, string>): Promise<RunningHost> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'main', 'web-host.js'), '--port', '0'], {
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO', MAPWRIGHT_MODEL_URL: '', MAPWRIGHT_MODEL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not print its URL in 20 s; stderr: ${err}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const m = /^Mapwright web host: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/.exec(line);
      if (m) resolveUrl(m[1]!);
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`web host exited with ${code}: ${err}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    process: child,
    stderr: () => err,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

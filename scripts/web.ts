import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.js';

/**
 * `npm run web [-- --port N]`: build, then run the web host in this terminal. The host prints
 * the one line `Mapwright web host: URL`; signals pass through so Ctrl-C closes it cleanly.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export async function runWebHost(args: string[]): Promise<never> {
  await buildAll();
  const child = spawn(process.execPath, [join(root, 'dist', 'main', 'web-host.js'), ...args], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  return new Promise<never>(() => {
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runWebHost(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

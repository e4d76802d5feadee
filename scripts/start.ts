import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.js';
import { runWebHost } from './web.js';

/**
 * `npm start`: the Electron app where its runtime exists; otherwise one line saying so and
 * the web host instead (this machine cannot download Electron's binary).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron binary if installed. Not `require('electron')`: that starts a download when it is missing. */
function electronBinary(): string | null {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

async function main(): Promise<void> {
  const binary = electronBinary();
  if (!binary) {
    process.stderr.write('Electron runtime not found (node_modules/electron has no binary); starting the web host instead.\n');
    await runWebHost(process.argv.slice(2));
    return;
  }
  await buildAll();
  const child = spawn(binary, [join(root, 'dist', 'main', 'electron-main.cjs')], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

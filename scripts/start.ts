import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.js';
import { runWebHost } from './web.js';

/**
 * `npm start`: the Electron app where its runtime exists; otherwise one line saying so and
 * the web host instead (this machine cannot download Electron's binary).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
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

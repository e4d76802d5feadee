import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exitLatch, type WorkerChannel, type WorkerLauncher } from './launcher.js';

/** A package's ESM entry, resolved from the current folder (tests and benches run in the checkout). */
function resolveFromHere(specifier: string): string {
  const req = createRequire(join(process.cwd(), 'package.json'));
  const pkgJson = req.resolve(`${specifier}/package.json`);
  const exported = (req(pkgJson) as { exports?: { '.'?: unknown } }).exports?.['.'];
  return typeof exported === 'string' ? pathToFileURL(join(pkgJson, '..', exported)).href : specifier;
}

/**
 * Starts the GIS worker with `child_process.fork` (web host and tests). `advanced`
 * serialization is structured clone, so Uint8Array tile bytes arrive as bytes, as they do
 * over Electron's utilityProcess. The worker's stdout and stderr both go to main's stderr:
 * visible for diagnosis, and nothing the worker prints can corrupt main's stdout.
 */
export function forkLauncher(entryPath: string, execArgv: string[] = []): WorkerLauncher {
  // The worker runs in a private folder, where a bare `--import tsx` would not resolve.
  const args = execArgv.map((arg, i) => (execArgv[i - 1] === '--import' && !/^(\.|\/|file:)/.test(arg) ? resolveFromHere(arg) : arg));
  return (spawn) => {
    const child = fork(entryPath, [], {
      serialization: 'advanced',
      execArgv: args,
      env: spawn.env,
      cwd: spawn.cwd,
      stdio: ['ignore', 2, 2, 'ipc'],
    });

    const exit = exitLatch();
    child.once('exit', (code) => exit.finish(code));
    // An unhandled 'error' on a ChildProcess would throw in main. It fires when the process
    // could not be spawned (then no 'exit' follows) or a send/kill failed (exit handles that).
    child.on('error', (err) => {
      if (child.pid === undefined) exit.finish(null);
      else console.error('[gis-worker] channel error:', err.message);
    });

    const channel: WorkerChannel = {
      send(message) {
        if (!child.connected) return;
        // The callback swallows EPIPE-style failures: the exit handler deals with a dead worker.
        child.send(message as never, (err) => {
          if (err) console.error('[gis-worker] send failed:', err.message);
        });
      },
      onMessage(listener) {
        child.on('message', listener);
      },
      onExit: exit.onExit,
      kill() {
        if (!exit.exited) child.kill('SIGKILL');
      },
      get pid() {
        return child.pid;
      },
    };
    return channel;
  };
}

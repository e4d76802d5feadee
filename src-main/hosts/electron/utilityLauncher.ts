/**
 * Starts the GIS worker as an Electron utility process (a Node child that Electron owns and
 * ends when the app quits; if main is killed instead, the worker's watchdog ends it — see
 * `gis-worker/parentWatchdog.ts`), the Electron twin of `worker-host/forkLauncher.ts`. The
 * worker talks back through `process.parentPort` — see `gis-worker/parentChannel.ts`.
 * Only callable after `app` is ready.
 */
import { utilityProcess } from 'electron';
import { exitLatch, type WorkerChannel, type WorkerLauncher } from '../../worker-host/launcher.js';

/** `entry` is the built worker bundle (`dist/main/gis-worker.js`). */
export function utilityLauncher(entry: string): WorkerLauncher {
  return (spawn) => {
    // The set-up's whole environment (egress gate, private paths, CPL_TMPDIR) and private
    // folder, as under fork: without them the worker would inherit main's environment.
    const child = utilityProcess.fork(entry, [], { serviceName: 'mapwright-gis', stdio: 'inherit', env: spawn.env, cwd: spawn.cwd });

    const exit = exitLatch();
    // 'exit' follows every end, a V8 fatal 'error' included, so it alone means "gone".
    child.once('exit', (code) => exit.finish(code));

    const channel: WorkerChannel = {
      send(message) {
        // postMessage structured-clones, so Uint8Array tile bytes arrive as bytes.
        if (!exit.exited) child.postMessage(message);
      },
      onMessage(listener) {
        child.on('message', listener);
      },
      onExit: exit.onExit,
      kill() {
        if (!exit.exited) child.kill();
      },
      get pid() {
        return child.pid;
      },
    };
    return channel;
  };
}

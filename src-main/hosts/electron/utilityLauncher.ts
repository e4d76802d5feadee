/**
 * Starts the GIS worker as an Electron utility process (a Node child of main that the app
 * owns and Chromium sandboxes apart from the renderer). The worker talks back through
 * `process.parentPort` — see `gis-worker/parentChannel.ts`. Only callable after `app` is ready.
 */
import { utilityProcess } from 'electron';
import type { WorkerChannel, WorkerLauncher } from '../../worker-host/launcher.js';

/** `entry` is the built worker bundle (`dist/main/gis-worker.js`). */
export function utilityLauncher(entry: string): WorkerLauncher {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'mapwright-gis', stdio: 'inherit' });
    const channel: WorkerChannel = {
      // postMessage structured-clones, so Uint8Array tiles arrive as Uint8Array.
      send: (message) => child.postMessage(message),
      onMessage: (listener) => {
        child.on('message', listener);
      },
      // 'exit' follows every end, including a V8 fatal 'error', so it alone means "gone".
      onExit: (listener) => {
        child.once('exit', listener);
      },
      kill: () => {
        child.kill();
      },
      get pid() {
        return child.pid;
      },
    };
    return channel;
  };
}

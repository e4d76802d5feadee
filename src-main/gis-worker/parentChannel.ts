/**
 * The GIS worker's line to main, whichever way it was started: an Electron utility process
 * (`process.parentPort`, messages arrive wrapped as `{ data }`) or `child_process.fork`
 * (`process.send` / `process.on('message')`). No Electron import: the worker also runs
 * under plain Node, where the web host and the tests fork it.
 */

export interface ParentChannel {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** The part of Electron's `ParentPort` used here, typed locally so Node builds need no Electron. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export function parentChannel(): ParentChannel {
  const port = (process as unknown as { parentPort?: ParentPortLike | null }).parentPort;
  if (port) {
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => {
        port.on('message', (event) => listener(event.data));
      },
    };
  }
  const send = process.send?.bind(process);
  if (send) {
    return {
      send: (message) => {
        send(message);
      },
      onMessage: (listener) => {
        process.on('message', listener);
      },
    };
  }
  throw new Error('gis-worker: no parent channel; start it through a WorkerLauncher (utilityProcess or fork with IPC)');
}

import { connect, type Socket } from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { appDataDir } from '../src-main/hosts/appDataDir.js';
import { mcpSocketPath } from '../src-main/mcp-server/socketPath.js';

/**
 * `npm run mcp`: Mapwright as a stdio MCP server, for Claude Desktop, Cursor or the MCP
 * inspector. It relays the client's stdio to the running app's local socket
 * (`<MAPWRIGHT_HOME>/mcp.sock`, or its named pipe on Windows), where the app's own dispatcher,
 * approval policy and audit serve the call; a change asks the person in the app's window.
 *
 * With no app running, every request gets a JSON-RPC error saying so and how to start it; an
 * `initialize` tries the app again, so a client that reconnects after the app starts works.
 * Nothing but JSON-RPC goes to stdout; it exits when stdin closes.
 */
const home = appDataDir();
const socketPath = mcpSocketPath(home);
const NOT_RUNNING =
  `Mapwright is not running: no Mapwright app answers at ${socketPath}. ` +
  'Start it (`npm run web` in the Mapwright folder, or the desktop app) with the same data folder' +
  `${process.env.MAPWRIGHT_HOME ? ` (MAPWRIGHT_HOME=${process.env.MAPWRIGHT_HOME})` : ''}, then reconnect.`;

let app: Socket | null = null;
let stdinEnded = false;
const input = new ReadBuffer();
// Messages are handled one after another, so a reconnect keeps them in order.
let queue: Promise<void> = Promise.resolve();

function openApp(): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', (err) => process.stderr.write(`[mapwright mcp] connection to the app failed: ${err.message}\n`));
      // The app writes whole JSON-RPC lines: they go to stdout as they are.
      socket.on('data', (chunk: Buffer) => process.stdout.write(chunk));
      socket.on('close', () => {
        if (app === socket) app = null;
        if (stdinEnded) process.exit(0);
        process.stderr.write('[mapwright mcp] the Mapwright app closed the connection\n');
      });
      resolve(socket);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(null);
    });
  });
}

async function handle(message: JSONRPCMessage): Promise<void> {
  const isRequest = 'method' in message && 'id' in message;
  if (!app && isRequest && message.method === 'initialize') app = await openApp();
  if (app && app.writable) {
    app.write(serializeMessage(message));
    return;
  }
  if (isRequest) process.stdout.write(serializeMessage({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: NOT_RUNNING } }));
}

process.stdin.on('data', (chunk: Buffer) => {
  try {
    input.append(chunk);
  } catch (err) {
    process.stderr.write(`[mapwright mcp] ${err instanceof Error ? err.message : String(err)}\n`);
    return;
  }
  for (;;) {
    let message: JSONRPCMessage | null;
    try {
      message = input.readMessage();
    } catch (err) {
      process.stderr.write(`[mapwright mcp] ignored a line that is not JSON-RPC: ${err instanceof Error ? err.message : String(err)}\n`);
      continue;
    }
    if (!message) break;
    const m = message;
    queue = queue.then(() => handle(m));
  }
});

process.stdin.on('end', () => {
  stdinEnded = true;
  void queue.then(() => {
    if (app) app.end();
    else process.exit(0);
    // A socket that does not close promptly does not keep the client waiting.
    setTimeout(() => process.exit(0), 2000).unref();
  });
});

queue = openApp().then((socket) => {
  app = socket;
  if (!socket) process.stderr.write(`[mapwright mcp] ${NOT_RUNNING}\n`);
});

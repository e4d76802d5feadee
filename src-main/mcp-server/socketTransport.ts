import type { Socket } from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * An MCP transport over one local socket connection (a Unix socket or a Windows named pipe),
 * framed as the SDK's stdio transport is: one JSON-RPC message per line. Used by the app's
 * socket endpoint (one session per connection) and by clients of it (tests).
 */
export class SocketTransport implements Transport {
  private readonly buffer = new ReadBuffer();
  private closed = false;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly socket: Socket) {}

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
      } catch (err) {
        // A line over the buffer's cap (10 MB): not a client worth serving.
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
        this.socket.destroy();
        return;
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    this.socket.on('error', (err) => this.onerror?.(err));
    this.socket.on('close', () => this.finish());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || !this.socket.writable) return reject(new Error('The MCP connection is closed.'));
      this.socket.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroySoon?.();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}

import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a recording server received, body read whole. */
export interface ReceivedRequest {
  /** As sent: the raw path and query, still percent-encoded. */
  url: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** For tests of outbound HTTP: a loopback server that records every request, then lets `handle` answer it. */
export async function startRecordingServer(handle: (req: ReceivedRequest, res: ServerResponse) => void): Promise<RecordingServer> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { url: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      received.push(entry);
      handle(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

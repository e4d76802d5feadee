import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { originOfTarget } from '../../src-shared/security/sourceClass.js';
import { checkDestination, EgressRefused, originOf, type EgressOptions } from './ssrfGuard.js';

/** One connection attempt the gate judged, kept for the tool result and the tests. */
export interface EgressEvent {
  at: number;
  origin: string;
  target: string;
  allowed: boolean;
  reason: string;
}

/**
 * GDAL's one way out (DESIGN §5). The GIS worker starts with every HTTP proxy setting GDAL
 * and libcurl read pointed here (`workerEnv`), with a secret only it knows, so each request
 * GDAL makes — a `/vsicurl/` read, a WMS/WFS request, a URL inside a local VRT, a redirect —
 * arrives here first. The gate forwards a request only while an approved call that named its
 * origin is running (`open`), and only after the SSRF checks (public addresses unless the
 * person allowed that exact origin, the connection pinned to the checked address). Everything
 * else is answered 403 and recorded. HTTPS arrives as CONNECT host:port, so approval is per
 * origin, never per path.
 */
export class EgressGate {
  private readonly open = new Map<string, number>();
  private readonly events: EgressEvent[] = [];
  private readonly sockets = new Set<Socket>();
  /** HTTPS tunnels by origin: curl keeps them alive, so they are cut when their origin closes. */
  private readonly tunnels = new Map<string, Set<Socket>>();
  /** Origins kept open outside calls (the project's granted map sources), asked at each judgement. */
  private standing: () => ReadonlySet<string> = () => new Set();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly secret: string,
    private readonly guard: EgressOptions,
  ) {}

  static async start(guard: EgressOptions = {}): Promise<EgressGate> {
    const secret = randomBytes(18).toString('hex');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const gate = new EgressGate(server, (server.address() as AddressInfo).port, secret, guard);
    server.on('request', (req, res) => void gate.onRequest(req, res));
    server.on('connect', (req, socket: Socket, head) => void gate.onConnect(req, socket, head));
    server.on('connection', (socket: Socket) => {
      gate.sockets.add(socket);
      socket.on('close', () => gate.sockets.delete(socket));
    });
    server.on('clientError', (_err, socket: Socket) => socket.destroy());
    return gate;
  }

  /** Lets requests to these origins through until the returned function is called (counted, so calls may overlap). */
  openFor(origins: readonly string[]): () => void {
    const keys = origins.map((o) => o.toLowerCase());
    for (const k of keys) this.open.set(k, (this.open.get(k) ?? 0) + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      for (const k of keys) {
        const n = (this.open.get(k) ?? 1) - 1;
        if (n > 0) {
          this.open.set(k, n);
          continue;
        }
        this.open.delete(k);
        // A kept-alive tunnel would carry later requests unjudged: the approval ends here.
        for (const tunnel of this.tunnels.get(k) ?? []) tunnel.destroy();
        this.tunnels.delete(k);
      }
    };
  }

  /**
   * Keeps origins open outside any call, for as long as `origins()` names them: the map
   * sources the person approved for this project (network_origin_grants) that a layer of the
   * project still reads, so their tiles can be drawn after the call that added them ended.
   * Asked at every judgement, so a revoked grant or a removed layer closes the origin at once
   * (a kept-alive HTTPS tunnel is cut by `closeStanding`). The SSRF checks still apply.
   */
  allowPersistently(origins: () => ReadonlySet<string>): void {
    this.standing = () => {
      try {
        return new Set([...origins()].map((o) => o.toLowerCase()));
      } catch {
        return new Set(); // fail closed
      }
    };
  }

  /** Cuts kept-alive tunnels of origins that are no longer open (after a grant was revoked). */
  closeStanding(): void {
    const standing = this.standing();
    for (const [origin, tunnels] of this.tunnels) {
      if (this.open.has(origin) || standing.has(origin)) continue;
      for (const tunnel of tunnels) tunnel.destroy();
      this.tunnels.delete(origin);
    }
  }

  private isOpen(origin: string): 'call' | 'standing' | null {
    if (this.open.has(origin)) return 'call';
    return this.standing().has(origin) ? 'standing' : null;
  }

  /** The newest judgements first (at most 200 kept). */
  recent(since = 0): EgressEvent[] {
    return this.events.filter((e) => e.at >= since).reverse();
  }

  /**
   * The worker's environment: GDAL's proxy options and libcurl's proxy variables (read by any
   * library in the process that uses curl), no bypass list, and no driver that connects to a
   * server without curl (database clients), so nothing can leave except through the gate.
   */
  workerEnv(): Record<string, string> {
    return egressEnvFor(`127.0.0.1:${this.port}`, `mapwright:${this.secret}`);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private authorised(req: IncomingMessage): boolean {
    const header = req.headers['proxy-authorization'] ?? '';
    const given = Buffer.from(header.replace(/^Basic\s+/i, ''), 'utf8');
    const expected = Buffer.from(Buffer.from(`mapwright:${this.secret}`).toString('base64'), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Whether a request to `target` may go out now; records the judgement either way. */
  private async judge(target: string): Promise<{ ok: true; address: string } | { ok: false; status: number; reason: string }> {
    const origin = originOfTarget(target) ?? target;
    const refuse = (status: number, reason: string) => {
      this.record({ origin, target, allowed: false, reason });
      return { ok: false as const, status, reason };
    };
    const why = this.isOpen(origin);
    if (!why) return refuse(403, `no approved call is using ${origin}`);
    try {
      const checked = await checkDestination(target, this.guard);
      this.record({
        origin,
        target,
        allowed: true,
        reason: why === 'call' ? 'approved for the running call' : 'a map source of the project, approved for this origin',
      });
      return { ok: true, address: checked.address };
    } catch (err) {
      return refuse(403, err instanceof EgressRefused ? err.message : `the destination could not be checked (${(err as Error).message})`);
    }
  }

  private record(e: Omit<EgressEvent, 'at'>): void {
    this.events.push({ at: Date.now(), ...e, target: e.target.slice(0, 300) });
    if (this.events.length > 200) this.events.shift();
  }

  /** Plain-HTTP requests in absolute form (`GET http://host/path`). */
  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.authorised(req)) return void res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="mapwright"' }).end();
    const target = req.url ?? '';
    if (!/^http:\/\//i.test(target)) return void res.writeHead(400).end('Only absolute http:// URLs');
    const verdict = await this.judge(target);
    if (!verdict.ok)
      return void res
        .writeHead(verdict.status, { 'X-Mapwright-Egress': 'refused', 'Content-Type': 'text/plain' })
        .end(`Refused by Mapwright's egress gate: ${verdict.reason}`);
    const url = new URL(target);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: url.host };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest({
      host: verdict.address,
      port: url.port || 80,
      method: req.method,
      path: url.pathname + url.search,
      headers,
      setHost: false,
      timeout: 60_000,
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  }

  /** HTTPS tunnels (`CONNECT host:443`): judged by origin, then piped to the pinned address. */
  private async onConnect(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    if (!this.authorised(req))
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="mapwright"\r\n\r\n');
    const hostPort = req.url ?? '';
    const target = `https://${hostPort}/`;
    const verdict = await this.judge(target);
    if (!verdict.ok) return void client.end(`HTTP/1.1 ${verdict.status} Forbidden\r\nX-Mapwright-Egress: refused\r\n\r\n`);
    const origin = originOfTarget(target) ?? target;
    // The call may have ended while the name was being checked.
    if (!this.isOpen(origin)) return void client.end('HTTP/1.1 403 Forbidden\r\nX-Mapwright-Egress: refused\r\n\r\n');
    const open = this.tunnels.get(origin) ?? new Set<Socket>();
    this.tunnels.set(origin, open.add(client));
    client.on('close', () => open.delete(client));
    const port = Number(/:(\d+)$/.exec(hostPort)?.[1] ?? 443);
    const upstream = connect({ host: verdict.address, port, timeout: 60_000 });
    upstream.on('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }
}

/**
 * Drivers that open network connections without libcurl (database clients, OGDI's gltp://),
 * so no proxy setting can hold them: the worker does not register them at all. These are the
 * ones Debian's GDAL 3.6 has; a build with OCI, HANA or MongoDB needs them added here
 * (GDAL warns once at start-up for a listed driver it does not have).
 *
 * PostgreSQL and PostGISRaster are the exceptions (issue 16): the worker reads the person's
 * saved PostGIS connections through them. No string from a tool or a file reaches them: every
 * source the worker opens passes `guardSource`, which refuses any `PG:` connection string (and
 * one named inside a VRT or other dataset file); the only `PG:` strings GDAL sees are the ones
 * gis-worker/databases.ts builds from the connections main sent, each opened with its driver
 * alone (rasters with `outdb_resolution=server_side`: no file path from the database is opened here).
 */
export const DRIVERS_WITHOUT_GATE = ['MySQL', 'ODBC', 'PGeo', 'MSSQLSpatial', 'OGR_OGDI'];

/** Proxy variables the worker must not inherit (a bypass list would let traffic around the gate). */
const INHERITED_PROXY_VARS = [
  'http_proxy',
  'HTTP_PROXY',
  'https_proxy',
  'HTTPS_PROXY',
  'all_proxy',
  'ALL_PROXY',
  'no_proxy',
  'NO_PROXY',
  'ftp_proxy',
  'FTP_PROXY',
];

/** The environment that sends every curl request of the worker to `proxy` (`host:port`). */
export function egressEnvFor(proxy: string, userPassword: string): Record<string, string> {
  const proxyUrl = `http://${userPassword}@${proxy}`;
  return {
    GDAL_HTTP_PROXY: proxy,
    GDAL_HTTPS_PROXY: proxy,
    GDAL_HTTP_PROXYUSERPWD: userPassword,
    GDAL_PROXY_AUTH: 'BASIC',
    http_proxy: proxyUrl,
    HTTP_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    all_proxy: proxyUrl,
    ALL_PROXY: proxyUrl,
    ftp_proxy: proxyUrl,
    GDAL_SKIP: DRIVERS_WITHOUT_GATE.join(' '),
    // PROJ can download grids; it never needs to here.
    PROJ_NETWORK: 'OFF',
    // A VRT may carry Python pixel functions: never run them.
    GDAL_VRT_ENABLE_PYTHON: 'NO',
    GDAL_HTTP_MAX_RETRY: '0',
  };
}

/**
 * The environment of a worker with no gate at all (tests, tools): proxies that refuse every
 * connection (port 9 on loopback is closed), so a missing gate fails closed, never open.
 */
export function closedEgressEnv(): Record<string, string> {
  return egressEnvFor('127.0.0.1:9', 'mapwright:none');
}

/** The parent's environment without proxy variables, plus `extra`. */
export function workerEnvironment(parent: NodeJS.ProcessEnv, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && !INHERITED_PROXY_VARS.includes(k)) env[k] = v;
  return { ...env, ...extra };
}

/**
 * `MAPWRIGHT_ALLOW_ORIGINS`: exact origins (comma-separated, e.g. `http://192.168.1.5:8080`)
 * the person allows to resolve to loopback or private addresses — a NAS, a local tile server.
 * Calls to them are still asked for; only the SSRF refusal is lifted.
 */
export function allowedOriginsFromEnv(env: NodeJS.ProcessEnv): Set<string> {
  const out = new Set<string>();
  for (const item of (env.MAPWRIGHT_ALLOW_ORIGINS ?? '').split(',')) {
    const text = item.trim();
    if (!text) continue;
    try {
      out.add(originOf(text));
    } catch {
      console.error(`[egress] MAPWRIGHT_ALLOW_ORIGINS: '${text}' is not an origin; ignored`);
    }
  }
  return out;
}

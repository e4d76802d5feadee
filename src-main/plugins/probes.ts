import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { jsonSchemaProblem, type PluginToolManifest } from '../../src-shared/plugins/pluginManifest.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { checkDestination, codeOf, EgressFailed, EgressRefused, originOf, type EgressOptions } from '../net/ssrfGuard.js';
import { checkGrpcAddress, loadGrpcMethod } from './executors/grpcExecutor.js';
import { McpConnection, type McpToolInfo } from './executors/mcpExecutor.js';
import { boundToolName, mcpSpecKey, mcpSpecOf, type McpSessionConnection, type McpSessions } from './executors/mcpSessions.js';
import type { PluginEntry } from './readPluginRoot.js';

/**
 * The connectivity probe of a plugin version (issue #12: "run the package's self-test cases
 * and a connectivity probe for http/grpc/mcp; a plugin that fails is listed as unavailable
 * with the reason"). One probe per distinct endpoint, all in parallel, each within its own
 * time limit; never throws: what fails is a problem in words that name the endpoint and the
 * tools that use it.
 *
 *   - http: the declared origin through the SSRF guard (checkDestination: the same rule and the
 *     same person's allowed origins a call uses), then a connection to the checked address —
 *     plain TCP for http://, a TLS handshake with the certificate verified for https://. No
 *     HTTP request is sent: a HEAD or GET of some path would be a request to an endpoint the
 *     plugin never declared, and its status would prove little about the declared one. The
 *     honest claim is "the server is there and accepts connections (with a valid certificate)".
 *   - grpc: the .proto, service and method loaded (loadGrpcMethod), the address through the
 *     guard (checkGrpcAddress), then the channel's connectivity (waitForReady before the
 *     deadline) on the checked IP, plaintext or TLS exactly as a call would use. No RPC.
 *   - mcp: the server opened (started for stdio) and its tools listed; every tool an entry
 *     binds (`executor.tool`, default the entry's name) must be there, else the problem lists
 *     the names it has. For an entry that declares no parameters, the server's inputSchema is
 *     returned as its parameters, when Mapwright can check it (jsonSchemaProblem). With
 *     `ctx.sessions` the connection is the pool's and stays open for the calls (eager start);
 *     without, a connection of its own is closed after the probe.
 */

export interface ProbeContext {
  /** The app's guard options (the person's non-public origins; lookup for tests). */
  egress?: EgressOptions;
  /** Time one probe gets; default PROBE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Reuse (and keep) the pool's MCP connections; default a connection of its own per server, closed after. */
  sessions?: McpSessions;
  /** HOME and TMPDIR of a stdio MCP server; default the plugin folder. */
  workDir?: string;
  /** Stops every probe (each then reports it was stopped). */
  signal?: AbortSignal;
}

export type ToolParameters = PluginToolManifest['parameters'];

export interface ProbeResult {
  /** What failed, one line per endpoint (or per missing tool); empty when every probe passed. */
  problems: string[];
  /** Tool name (the entry's) → the server's input schema, for mcp entries that declare no parameters. */
  mcpSchemas: Map<string, ToolParameters>;
}

export const PROBE_TIMEOUT_MS = 5000;

interface ProbeOutcome {
  problems: string[];
  schemas?: [string, ToolParameters][];
}
type Probe = (signal: AbortSignal) => Promise<ProbeOutcome>;

export async function probeExecutors(entry: PluginEntry, ctx: ProbeContext = {}): Promise<ProbeResult> {
  const result: ProbeResult = { problems: [], mcpSchemas: new Map() };
  const manifest = entry.manifest;
  if (!manifest) return result;
  const timeoutMs = ctx.timeoutMs ?? PROBE_TIMEOUT_MS;

  const http = new Map<string, PluginToolManifest[]>();
  const grpcs = new Map<string, PluginToolManifest[]>();
  const mcps = new Map<string, PluginToolManifest[]>();
  const add = (map: Map<string, PluginToolManifest[]>, key: string, tool: PluginToolManifest) =>
    map.set(key, [...(map.get(key) ?? []), tool]);
  const probes: { label: string; run: Probe }[] = [];
  for (const tool of manifest.tools) {
    const ex = tool.executor;
    try {
      if (ex.type === 'http') add(http, originOf(ex.url), tool);
      else if (ex.type === 'grpc') add(grpcs, ex.address, tool);
      else if (ex.type === 'mcp') add(mcps, mcpSpecKey(mcpSpecOf(ex)), tool);
    } catch (err) {
      result.problems.push(`tool '${tool.name}': ${message(err)}`);
    }
  }
  for (const [origin, tools] of http) {
    probes.push({ label: `http ${origin} (${names(tools)})`, run: (signal) => probeHttp(origin, ctx.egress, timeoutMs, signal) });
  }
  for (const [address, tools] of grpcs) {
    probes.push({
      label: `grpc ${address} (${names(tools)})`,
      run: (signal) => probeGrpc(address, tools, entry.dir, ctx.egress, timeoutMs, signal),
    });
  }
  for (const tools of mcps.values()) {
    const ex = tools[0]!.executor as Extract<PluginToolManifest['executor'], { type: 'mcp' }>;
    const where = shorten(ex.stdio ? [ex.stdio.command, ...ex.stdio.args].join(' ') : ex.url!, 120);
    probes.push({ label: `mcp ${where} (${names(tools)})`, run: (signal) => probeMcp(entry, tools, ctx, timeoutMs, signal) });
  }

  const outcomes = await Promise.all(probes.map((p) => limited(p.label, p.run, timeoutMs, ctx.signal)));
  for (const outcome of outcomes) {
    result.problems.push(...outcome.problems);
    for (const [name, schema] of outcome.schemas ?? []) result.mcpSchemas.set(name, schema);
  }
  return result;
}

/** One probe within its time limit and the caller's signal; whatever it throws becomes a problem naming it. */
async function limited(label: string, run: Probe, timeoutMs: number, outer: AbortSignal | undefined): ReturnType<Probe> {
  if (outer?.aborted) return { problems: [`${label}: stopped`] };
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuter: () => void = () => {};
  const stop = new Promise<ProbeOutcome>((resolve) => {
    onOuter = () => {
      ac.abort();
      resolve({ problems: [`${label}: stopped`] });
    };
    outer?.addEventListener('abort', onOuter, { once: true });
    // A little past the probe's own limit, so its own (more precise) message wins the race.
    timer = setTimeout(() => {
      ac.abort();
      resolve({ problems: [`${label}: no answer within ${seconds(timeoutMs)}`] });
    }, timeoutMs + 250);
  });
  try {
    return await Promise.race([
      run(ac.signal).then(
        (r) => ({ ...r, problems: r.problems.map((p) => `${label}: ${p}`) }),
        (err: unknown) => ({ problems: [`${label}: ${message(err)}`] }),
      ),
      stop,
    ]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
    ac.abort();
  }
}

/** The origin through the guard, then a TCP connection (TLS handshake for https) to the checked address. */
async function probeHttp(origin: string, egress: EgressOptions | undefined, timeoutMs: number, signal: AbortSignal): ReturnType<Probe> {
  let checked;
  try {
    checked = await checkDestination(origin, egress ?? {});
  } catch (err) {
    if (err instanceof EgressRefused || err instanceof EgressFailed) return { problems: [err.message] };
    throw err;
  }
  const url = new URL(origin);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const tls = url.protocol === 'https:';
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => done(new Error('stopped'));
    const socket: Socket = tls
      ? tlsConnect({
          host: checked.address,
          port,
          ...(isIP(host) ? {} : { servername: host }),
          rejectUnauthorized: true,
          timeout: timeoutMs,
        })
      : netConnect({ host: checked.address, port, timeout: timeoutMs });
    const done = (err?: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    socket.once(tls ? 'secureConnect' : 'connect', () => done());
    socket.once('error', (err) => done(new Error(`${checked.address}:${port} is unreachable (${codeOf(err)})`)));
    socket.once('timeout', () => done(new Error(`${checked.address}:${port} did not accept a connection within ${seconds(timeoutMs)}`)));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { problems: [] };
}

/** The proto of every tool on the address, the address through the guard, then the channel's readiness. */
async function probeGrpc(
  address: string,
  tools: readonly PluginToolManifest[],
  pluginDir: string,
  egress: EgressOptions | undefined,
  timeoutMs: number,
  signal: AbortSignal,
): ReturnType<Probe> {
  const problems: string[] = [];
  for (const tool of tools) {
    if (tool.executor.type !== 'grpc') continue;
    try {
      loadGrpcMethod(tool.executor, pluginDir);
    } catch (err) {
      problems.push(`tool '${tool.name}': ${message(err)}`);
    }
  }
  const dest = await checkGrpcAddress(address, egress);
  const authority = dest.host.includes(':') ? `[${dest.host}]:${dest.port}` : `${dest.host}:${dest.port}`;
  // The options a call uses (grpcExecutor.runGrpc): the checked IP only, no proxy, no retries.
  const client = new grpc.Client(dest.target, dest.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure(), {
    'grpc.default_authority': authority,
    'grpc.enable_http_proxy': 0,
    'grpc.enable_retries': 0,
    'grpc.service_config_disable_resolution': 1,
    ...(dest.tls ? { 'grpc.ssl_target_name_override': dest.host } : {}),
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new Error('stopped'));
      signal.addEventListener('abort', onAbort, { once: true });
      client.waitForReady(new Date(Date.now() + timeoutMs), (err) => {
        signal.removeEventListener('abort', onAbort);
        if (err) reject(new Error(`${dest.origin} did not become ready within ${seconds(timeoutMs)} (${err.message})`));
        else resolve();
      });
    });
  } catch (err) {
    problems.push(message(err));
  } finally {
    client.close();
  }
  return { problems };
}

/** The server opened and listed; every bound tool present; schemas for entries that declare none. */
async function probeMcp(
  entry: PluginEntry,
  tools: readonly PluginToolManifest[],
  ctx: ProbeContext,
  timeoutMs: number,
  signal: AbortSignal,
): ReturnType<Probe> {
  const ex = tools[0]!.executor as Extract<PluginToolManifest['executor'], { type: 'mcp' }>;
  const spec = mcpSpecOf(ex);
  const openCtx = {
    pluginDir: entry.dir,
    timeoutMs,
    ...(ctx.workDir ? { workDir: ctx.workDir } : {}),
    ...(ctx.egress ? { egress: ctx.egress } : {}),
  };
  const pooled = ctx.sessions;
  let conn: McpSessionConnection | undefined;
  if (!pooled) {
    // A connection of its own, closed by the abort too when the probe is given up.
    conn = await McpConnection.open(spec, { ...openCtx, signal });
  } else {
    conn = await pooled.get(spec, {
      pluginDir: entry.dir,
      version: entry.version,
      openTimeoutMs: timeoutMs,
      signal,
      ...(ctx.workDir ? { workDir: ctx.workDir } : {}),
      ...(ctx.egress ? { egress: ctx.egress } : {}),
    });
  }
  let listed: McpToolInfo[];
  try {
    listed = await conn.listTools({ signal, timeoutMs });
  } catch (err) {
    if (pooled) pooled.drop(spec, { pluginDir: entry.dir, version: entry.version }, conn);
    throw err;
  } finally {
    if (!pooled) await conn.close().catch(() => {});
  }
  const byName = new Map(listed.map((t) => [t.name, t]));
  const problems: string[] = [];
  const schemas: [string, ToolParameters][] = [];
  const has = listed.length ? listed.map((t) => t.name).join(', ') : 'none';
  for (const tool of tools) {
    if (tool.executor.type !== 'mcp') continue;
    const bound = boundToolName(tool.name, tool.executor);
    const info = byName.get(bound);
    if (!info) {
      problems.push(`tool '${tool.name}': the server has no tool '${bound}' (it has: ${has})`);
      continue;
    }
    if (Object.keys(tool.parameters.properties).length > 0) continue;
    const parameters = serverParameters(info.inputSchema);
    const problem = parameters ? jsonSchemaProblem(parameters) : 'not an object schema';
    if (problem) problems.push(`tool '${tool.name}': the server's input schema of '${bound}' is ${problem}`);
    else schemas.push([tool.name, parameters!]);
  }
  return { problems, schemas };
}

/** A server's inputSchema as a tool's parameters: an object schema, `properties` always present. */
function serverParameters(schema: Record<string, unknown>): ToolParameters | null {
  if (schema.type !== 'object') return null;
  const properties =
    schema.properties && typeof schema.properties === 'object' && !Array.isArray(schema.properties) ? schema.properties : {};
  return { ...schema, type: 'object', properties: properties as ToolParameters['properties'] };
}

function names(tools: readonly PluginToolManifest[]): string {
  const shown = tools.slice(0, 3).map((t) => t.name);
  return `${tools.length === 1 ? 'tool' : 'tools'} ${shown.join(', ')}${tools.length > 3 ? ` and ${tools.length - 3} more` : ''}`;
}

function message(err: unknown): string {
  if (err instanceof ToolFailure || err instanceof Error) return err.message;
  return String(err);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

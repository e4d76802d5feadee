import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_DESCRIPTION_MAX, type PluginToolManifest } from '../../../src-shared/plugins/pluginManifest.js';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import { guardedFetchStream, type GuardedFetchOptions, type GuardedRequestInit } from '../../net/guardedFetch.js';
import { allowedSet, checkDestination, EgressFailed, EgressRefused, originOf, type EgressOptions } from '../../net/ssrfGuard.js';
import { commandEnvironment } from './commandExecutor.js';
import { ProgramError, resolveProgram } from './commandProgram.js';

/**
 * The `mcp` executor of a plugin (issue #12): an MCP server whose tools are imported under the
 * plugin's namespace, spoken to through the official SDK's Client.
 *   - stdio: the program resolved as the command executor resolves it (absolute, a bare name in
 *     SAFE_PATH, or inside the plugin folder), its args as given (no shell), the command
 *     executor's scrubbed environment only, cwd the plugin folder, in its own process group
 *     (killed whole on close). The SDK's StdioClientTransport is not used because it always
 *     adds the app's HOME/USER/SHELL/TERM/LOGNAME and kills only the direct child; this
 *     transport reuses the SDK's framing (ReadBuffer, serializeMessage).
 *   - url: the SDK's StreamableHTTPClientTransport, every request through the SSRF guard
 *     (guardedFetchStream), only to the declared origin; a non-public origin only when the
 *     person listed it in `egress.allowedOrigins`.
 * Tool annotations the server sends are untrusted hints: they are returned, never believed
 * (mcpToolManifests makes every tool write + network).
 */

/** The manifest's `mcp` executor, `type` aside: exactly one of stdio or url. */
export type McpSpec = { stdio: { command: string; args?: readonly string[] }; url?: undefined } | { url: string; stdio?: undefined };

export interface McpOpenContext {
  /** The plugin's folder: where relative programs live, and the server's working folder. */
  pluginDir: string;
  /** HOME and TMPDIR of a stdio server; default the plugin folder. */
  workDir?: string;
  signal?: AbortSignal;
  /** Time to start and finish the MCP handshake. */
  timeoutMs: number;
  /** The app's guard options (allowedOrigins: origins the person allowed to be non-public; lookup for tests). */
  egress?: EgressOptions;
}

export interface McpCallContext {
  signal?: AbortSignal;
  timeoutMs: number;
  /** Characters of the joined text kept. */
  maxChars: number;
}

export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** As the server sent them: hints only, never trusted. */
  annotations?: Record<string, unknown>;
}

export interface McpCallResult {
  /** The text of the content blocks joined by blank lines (others named in brackets), capped at maxChars. */
  content: string;
  structured?: Record<string, unknown>;
  /** Always false in a returned result: an error result is thrown as ToolFailure('handler_error'). */
  isError: boolean;
  truncated: boolean;
}

/** Bytes of a stdio server's stderr kept, for the error when it fails. */
const STDERR_TAIL = 4096;
/** After stdin is closed, how long a stdio server has to exit before its group is killed. */
const EXIT_GRACE_MS = 300;
/** The guard's clock for one HTTP exchange (an SSE stream may stay open long); calls have their own time limits. */
const HTTP_EXCHANGE_LIMIT_MS = 60 * 60 * 1000;
const HTTP_MAX_BYTES = 256 * 1024 * 1024;
const CLIENT_INFO = { name: 'mapwright', version: '1.0.0' };

export class McpConnection {
  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    /** For messages: the program's name or the origin. */
    readonly label: string,
  ) {}

  /**
   * Starts (stdio) or reaches (url) the server and completes the handshake. Throws ToolFailure:
   * `not_allowed` for a program outside the plugin folder or an origin the guard refuses,
   * `timeout`, `cancelled`, `handler_error` otherwise (with the server's stderr tail).
   */
  static async open(spec: McpSpec, ctx: McpOpenContext): Promise<McpConnection> {
    if (ctx.signal?.aborted) throw new ToolFailure('cancelled', 'The MCP server was not started: stopped.');
    let transport: Transport & { stderrTail?: () => string };
    let label: string;
    if (spec.stdio) {
      let program: string;
      try {
        program = resolveProgram(spec.stdio.command, ctx.pluginDir);
      } catch (err) {
        const code = err instanceof ProgramError && err.reason === 'outside' ? 'not_allowed' : 'handler_error';
        throw new ToolFailure(code, (err as Error).message);
      }
      label = program.split('/').pop() ?? program;
      transport = new ScrubbedStdioTransport(
        program,
        [...(spec.stdio.args ?? [])],
        ctx.pluginDir,
        commandEnvironment(ctx.workDir ?? ctx.pluginDir),
      );
    } else {
      const { url, origin } = await checkedUrl(spec.url, ctx.egress);
      label = origin;
      transport = new StreamableHTTPClientTransport(url, { fetch: guardedFetchFor(origin, ctx.egress), redirectPolicy: 'follow' });
    }

    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: Math.max(1, ctx.timeoutMs), ...(ctx.signal ? { signal: ctx.signal } : {}) });
    } catch (err) {
      await transport.close().catch(() => {});
      const tail = transport.stderrTail?.().trim();
      throw failure(err, ctx.signal, `The MCP server ${label}`, ctx.timeoutMs, tail ? `\n${tail}` : '');
    }
    return new McpConnection(client, transport, label);
  }

  /** Every tool the server lists (following pagination). */
  async listTools(opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < 100; page++) {
        const res = await this.client.listTools(cursor ? { cursor } : {}, requestOptions(opts));
        for (const t of res.tools) {
          tools.push({
            name: t.name,
            ...(t.title ? { title: t.title } : t.annotations?.title ? { title: t.annotations.title } : {}),
            description: t.description ?? '',
            inputSchema: t.inputSchema as Record<string, unknown>,
            ...(t.annotations ? { annotations: { ...t.annotations } } : {}),
          });
        }
        cursor = res.nextCursor;
        if (!cursor) break;
      }
    } catch (err) {
      throw failure(err, opts.signal, `Listing the tools of ${this.label}`, opts.timeoutMs ?? 0);
    }
    return tools;
  }

  /**
   * Calls one tool. An error result is thrown as ToolFailure('handler_error') with its text;
   * the time limit is `timeout`, the signal `cancelled` (the SDK tells the server with
   * notifications/cancelled); a broken connection `handler_error`.
   */
  async callTool(name: string, args: Readonly<Record<string, unknown>>, ctx: McpCallContext): Promise<McpCallResult> {
    if (ctx.signal?.aborted) throw new ToolFailure('cancelled', `${name} was stopped before it started.`);
    let res: Awaited<ReturnType<Client['callTool']>>;
    try {
      res = await this.client.callTool({ name, arguments: { ...args } }, undefined, requestOptions(ctx));
    } catch (err) {
      throw failure(err, ctx.signal, `${name} (${this.label})`, ctx.timeoutMs);
    }
    const blocks = Array.isArray(res.content) ? (res.content as unknown[]) : [];
    const { text, truncated } = cap(blocks.map(blockText).join('\n\n'), ctx.maxChars);
    if (res.isError === true) throw new ToolFailure('handler_error', text || `${name} (${this.label}) reported an error.`);
    const structured = res.structuredContent;
    return {
      content: text,
      ...(structured && typeof structured === 'object' ? { structured: structured as Record<string, unknown> } : {}),
      isError: false,
      truncated,
    };
  }

  /** Ends the session: a stdio server's process group is killed, an HTTP session closed. */
  async close(): Promise<void> {
    if (this.transport instanceof StreamableHTTPClientTransport) await this.transport.terminateSession().catch(() => {});
    await this.client.close().catch(() => {});
  }
}

/** The shape of a manifest tool for one MCP tool; `mcp_name` is the server's own name, to call it by. */
export type McpToolManifest = Pick<
  PluginToolManifest,
  'name' | 'title' | 'description' | 'parameters' | 'safety' | 'risk_level' | 'network'
> & { id: `${string}.${string}`; mcp_name: string; annotations?: Record<string, unknown> };

const TOOL_NAME_MAX = 31;

/**
 * The tools a server lists as our manifest's tools: names made snake_case (at most 31
 * characters, unique within the list), the description capped, the input schema as the
 * parameters; every one write, network, medium risk whatever its annotations say (the person
 * may mark one otherwise). Tools whose name yields nothing usable are left out.
 */
export function mcpToolManifests(namespace: string, tools: readonly McpToolInfo[]): McpToolManifest[] {
  const used = new Set<string>();
  const out: McpToolManifest[] = [];
  for (const tool of tools) {
    const base = snakeName(tool.name);
    if (!base) continue;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base.slice(0, TOOL_NAME_MAX - String(n).length - 1).replace(/_+$/, '')}_${n}`;
    used.add(name);
    const title = (tool.title?.trim() || tool.name).slice(0, 80);
    const description = (tool.description.trim() || `The MCP tool ${tool.name}.`).slice(0, TOOL_DESCRIPTION_MAX);
    const schema = tool.inputSchema;
    const parameters = {
      ...schema,
      type: 'object' as const,
      properties: (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<
        string,
        Record<string, unknown>
      >,
    };
    out.push({
      id: `${namespace}.${name}`,
      name,
      mcp_name: tool.name,
      title,
      description,
      parameters,
      safety: 'write',
      risk_level: 'medium',
      network: true,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    });
  }
  return out;
}

/** `getWeather`, `get-weather`, `Get Weather` → `get_weather`; starts with a letter; ≤ 31 characters. */
export function snakeName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '');
  return snake.slice(0, TOOL_NAME_MAX).replace(/_+$/, '');
}

function requestOptions(ctx: { signal?: AbortSignal; timeoutMs?: number }): { signal?: AbortSignal; timeout?: number } {
  return {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.timeoutMs !== undefined && ctx.timeoutMs > 0 ? { timeout: ctx.timeoutMs } : {}),
  };
}

function failure(err: unknown, signal: AbortSignal | undefined, what: string, timeoutMs: number, detail = ''): ToolFailure {
  if (err instanceof ToolFailure) return err;
  if (signal?.aborted) return new ToolFailure('cancelled', `${what} was stopped.`);
  if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number))
    return new ToolFailure('timeout', `${what} did not answer within ${timeoutMs} ms.`, false);
  const cause = guardCause(err);
  if (cause instanceof EgressRefused) return new ToolFailure('not_allowed', cause.message);
  if (cause instanceof EgressFailed) return new ToolFailure('handler_error', cause.message);
  const message = err instanceof Error ? err.message : String(err);
  return new ToolFailure('handler_error', `${what} failed: ${message}${detail}`);
}

/** The guard's error, where the SDK wrapped it (an Error's cause) or passed it on. */
function guardCause(err: unknown): unknown {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EgressRefused || e instanceof EgressFailed) return e;
  }
  return err;
}

function blockText(block: unknown): string {
  if (!block || typeof block !== 'object') return '';
  const b = block as { type?: unknown; text?: unknown; mimeType?: unknown; uri?: unknown; resource?: { uri?: unknown; text?: unknown } };
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'resource' && b.resource && typeof b.resource.text === 'string') return b.resource.text;
  if (b.type === 'resource' && b.resource) return `[resource ${String(b.resource.uri)}]`;
  if (b.type === 'resource_link') return `[resource ${String(b.uri)}]`;
  return `[${String(b.type)}${typeof b.mimeType === 'string' ? ` ${b.mimeType}` : ''}]`;
}

function cap(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  return { text: `${text.slice(0, Math.max(0, maxChars))}…`, truncated: true };
}

/** The declared URL checked by the guard before anything is sent (refusals as ToolFailure). */
async function checkedUrl(url: string, egress: EgressOptions | undefined): Promise<{ url: URL; origin: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolFailure('handler_error', `The plugin's MCP URL ${JSON.stringify(url)} is not a valid URL.`);
  }
  if (parsed.username || parsed.password) throw new ToolFailure('handler_error', 'The MCP URL must not carry a user name or password.');
  const origin = originOf(parsed);
  try {
    await checkDestination(parsed, ownOrigin(origin, egress));
  } catch (err) {
    if (err instanceof EgressRefused) throw new ToolFailure('not_allowed', err.message);
    if (err instanceof EgressFailed) throw new ToolFailure('handler_error', err.message);
    throw err;
  }
  return { url: parsed, origin };
}

/** The guard's options for one origin: it may be non-public only if the person listed it; no other origin ever. */
function ownOrigin(origin: string, egress: EgressOptions | undefined): EgressOptions {
  const mayBeLocal = allowedSet(egress?.allowedOrigins).has(origin);
  return { allowedOrigins: new Set(mayBeLocal ? [origin] : []), ...(egress?.lookup ? { lookup: egress.lookup } : {}) };
}

/** A fetch for the SDK's transport: only to `origin`, every request through guardedFetchStream. */
function guardedFetchFor(origin: string, egress: EgressOptions | undefined): FetchLike {
  return async (input, init) => {
    const url = new URL(input.toString());
    if (originOf(url) !== origin) throw new EgressRefused(`Refused ${originOf(url)}: this MCP server may only reach ${origin}.`);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string')
      throw new TypeError('The MCP transport sent a body that is not text.');
    const request: GuardedRequestInit = { method: init?.method ?? 'GET', headers, ...(typeof body === 'string' ? { body } : {}) };
    const opts: GuardedFetchOptions = {
      ...ownOrigin(origin, egress),
      allowCrossOrigin: false,
      maxRedirects: 3,
      maxBytes: HTTP_MAX_BYTES,
      timeoutMs: HTTP_EXCHANGE_LIMIT_MS,
      ...(init?.signal ? { signal: init.signal } : {}),
    };
    const res = await guardedFetchStream(url, request, opts);
    const empty = [101, 204, 205, 304].includes(res.status) || request.method === 'HEAD';
    if (empty) res.body.destroy();
    return new Response(empty ? null : (Readable.toWeb(res.body) as unknown as WebReadableStream as unknown as ReadableStream), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/**
 * The stdio transport: the program spawned without a shell, in its own process group, with
 * exactly `env`; newline-delimited JSON-RPC on stdin/stdout (the SDK's framing); stderr kept
 * (its tail) for error messages. close() ends stdin, then kills the whole group.
 */
class ScrubbedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private stderr = '';
  private closed = false;

  constructor(
    private readonly program: string,
    private readonly args: string[],
    private readonly cwd: string,
    private readonly env: Record<string, string>,
  ) {}

  stderrTail(): string {
    return this.stderr;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.program, this.args, {
        cwd: this.cwd,
        env: this.env,
        shell: false,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => this.finish());
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
        } catch (err) {
          this.onerror?.(err as Error);
          void this.close();
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed) {
        reject(new Error('The MCP server is not running.'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return this.finish();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        child.stdin?.end();
      } catch {
        // already closed
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS).unref())]);
    }
    this.killGroup();
    this.finish();
  }

  private killGroup(): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.killGroup(); // whatever the server left running in its group goes with it
    this.buffer.clear();
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.onclose?.();
  }
}

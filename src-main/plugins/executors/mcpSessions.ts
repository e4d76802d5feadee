import type { PluginExecutor } from '../../../src-shared/plugins/pluginExecutor.js';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import type { EgressOptions } from '../../net/ssrfGuard.js';
import { McpConnection, type McpCallResult, type McpOpenContext, type McpSpec, type McpToolInfo } from './mcpExecutor.js';

/**
 * The live MCP servers of the plugins (issue #12): one connection per plugin version and
 * server spec, shared by every tool of that version that names the same server (a manifest
 * tool entry binds one server tool; several entries usually name one server).
 *
 *   - Lazy: nothing is started until a tool is called (or a probe / an eager plugin asks).
 *     Concurrent callers share the one open in flight; a failed open is forgotten, so the
 *     next call tries again.
 *   - The open is not tied to the first caller's signal (others wait on it too): a caller that
 *     is stopped stops waiting, the open goes on for the rest.
 *   - A dead connection (the process exited, the HTTP session lost) is dropped: runMcpTool
 *     asks the server for its tool list after a failed call, and when that fails too the
 *     connection is closed and forgotten; the next call opens a fresh one. A call that finds
 *     the connection already closed (the SDK's "Not connected": nothing was sent) is retried
 *     once on a fresh connection, so a server that died between calls costs no failure.
 *   - closeVersion when a version is removed or replaced, closeAll at shutdown; an open still
 *     in flight then has its connection closed as soon as it arrives.
 */

/** The manifest's `mcp` executor. */
export type McpExecutorManifest = Extract<PluginExecutor, { type: 'mcp' }>;

/** What a pool needs of a connection (McpConnection; a double in tests). */
export type McpSessionConnection = Pick<McpConnection, 'label' | 'listTools' | 'callTool' | 'close'>;

export type McpOpener = (spec: McpSpec, ctx: McpOpenContext) => Promise<McpSessionConnection>;

/** Where a plugin version's server runs and how it may be reached. */
export interface McpSessionContext {
  /** The plugin's folder: relative programs, the stdio server's working folder, part of the key. */
  pluginDir: string;
  /** The plugin's version: part of the key (two versions never share a server). */
  version: string;
  /** Time to start the server and finish the handshake. */
  openTimeoutMs: number;
  /** HOME and TMPDIR of a stdio server; default the plugin folder. */
  workDir?: string;
  /** The app's guard options for a `url` server. */
  egress?: EgressOptions;
  /** The caller's: stops its wait (`cancelled`), not an open others share. */
  signal?: AbortSignal;
}

/** The key of a plugin version's servers, for closeVersion. */
export function mcpVersionKey(pluginDir: string, version: string): string {
  return `${pluginDir}@${version}`;
}

/** The key of one server spec within a version: the program and its args, or the URL. */
export function mcpSpecKey(spec: McpSpec): string {
  return spec.stdio ? JSON.stringify(['stdio', spec.stdio.command, spec.stdio.args ?? []]) : JSON.stringify(['url', spec.url]);
}

/** The executor as the spec McpConnection.open takes (exactly one of stdio or url, as the manifest check ensures). */
export function mcpSpecOf(ex: Pick<McpExecutorManifest, 'stdio' | 'url'>): McpSpec {
  if (ex.stdio) return { stdio: { command: ex.stdio.command, args: [...(ex.stdio.args ?? [])] } };
  if (ex.url !== undefined) return { url: ex.url };
  throw new ToolFailure('handler_error', 'The MCP executor names neither a stdio command nor a URL.', false);
}

/** The server's tool an entry binds: `tool`, default the entry's own name. */
export function boundToolName(entryName: string, ex: Pick<McpExecutorManifest, 'tool'>): string {
  return ex.tool ?? entryName;
}

interface Slot {
  conn?: McpSessionConnection;
  opening?: Promise<McpSessionConnection>;
}

export class McpSessions {
  /** version key → spec key → slot. */
  private readonly versions = new Map<string, Map<string, Slot>>();
  private readonly open: McpOpener;

  constructor(opts: { open?: McpOpener } = {}) {
    this.open = opts.open ?? ((spec, ctx) => McpConnection.open(spec, ctx));
  }

  /**
   * The version's connection to this server, opened when there is none (one open shared by
   * concurrent callers). Throws ToolFailure as McpConnection.open does; `cancelled` when the
   * caller's signal stops its wait.
   */
  async get(spec: McpSpec, ctx: McpSessionContext): Promise<McpSessionConnection> {
    if (ctx.signal?.aborted) throw new ToolFailure('cancelled', 'The MCP server was not reached: stopped.');
    const versionKey = mcpVersionKey(ctx.pluginDir, ctx.version);
    const specKey = mcpSpecKey(spec);
    let slots = this.versions.get(versionKey);
    if (!slots) this.versions.set(versionKey, (slots = new Map()));
    let slot = slots.get(specKey);
    if (slot?.conn) return slot.conn;
    if (!slot) {
      const fresh: Slot = {};
      slot = fresh;
      slots.set(specKey, fresh);
      fresh.opening = this.open(spec, {
        pluginDir: ctx.pluginDir,
        timeoutMs: ctx.openTimeoutMs,
        ...(ctx.workDir ? { workDir: ctx.workDir } : {}),
        ...(ctx.egress ? { egress: ctx.egress } : {}),
      }).then(
        (conn) => {
          fresh.opening = undefined;
          if (this.slot(versionKey, specKey) !== fresh) {
            // Closed (closeVersion / closeAll / drop) while it was opening.
            void conn.close().catch(() => {});
            throw new ToolFailure('cancelled', `The MCP server ${conn.label} was closed while it started (its plugin was unloaded).`);
          }
          fresh.conn = conn;
          return conn;
        },
        (err: unknown) => {
          if (this.slot(versionKey, specKey) === fresh) this.forget(versionKey, specKey);
          throw err;
        },
      );
      // Nobody may be waiting any more (every caller stopped): the outcome is still handled.
      fresh.opening.catch(() => {});
    }
    return waitFor(slot.opening!, ctx.signal);
  }

  /** Drops `conn` if it is still this version's connection to the server, and closes it. */
  drop(spec: McpSpec, ctx: Pick<McpSessionContext, 'pluginDir' | 'version'>, conn: McpSessionConnection): void {
    const versionKey = mcpVersionKey(ctx.pluginDir, ctx.version);
    const specKey = mcpSpecKey(spec);
    if (this.slot(versionKey, specKey)?.conn === conn) this.forget(versionKey, specKey);
    void conn.close().catch(() => {});
  }

  /** Closes every server of a version (mcpVersionKey); opens in flight close when they arrive. */
  async closeVersion(versionKey: string): Promise<void> {
    const slots = this.versions.get(versionKey);
    if (!slots) return;
    this.versions.delete(versionKey);
    await Promise.all([...slots.values()].map((s) => s.conn?.close().catch(() => {})));
  }

  /** Closes the servers of every version whose key (mcpVersionKey) is not in `keep`. */
  async retain(keep: ReadonlySet<string>): Promise<void> {
    await Promise.all([...this.versions.keys()].filter((key) => !keep.has(key)).map((key) => this.closeVersion(key)));
  }

  /** Closes every server of every version. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.versions.keys()].map((key) => this.closeVersion(key)));
  }

  /** How many servers are open or opening (for tests and the panel). */
  /** Whether a version (mcpVersionKey) has a server open or opening. */
  holds(versionKey: string): boolean {
    return (this.versions.get(versionKey)?.size ?? 0) > 0;
  }

  size(): number {
    let n = 0;
    for (const slots of this.versions.values()) n += slots.size;
    return n;
  }

  private slot(versionKey: string, specKey: string): Slot | undefined {
    return this.versions.get(versionKey)?.get(specKey);
  }

  private forget(versionKey: string, specKey: string): void {
    const slots = this.versions.get(versionKey);
    slots?.delete(specKey);
    if (slots?.size === 0) this.versions.delete(versionKey);
  }
}

/** The promise, or `cancelled` as soon as the signal fires (the promise itself goes on). */
function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ToolFailure('cancelled', 'Stopped while the MCP server was starting.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** One call of a bound server tool. */
export interface McpRunContext extends McpSessionContext {
  signal: AbortSignal;
  /** The call's time limit. */
  timeoutMs: number;
  /** Characters the model reads: of the joined text, and of the structured content as JSON. */
  maxChars: number;
}

/** What the model reads of an MCP tool's answer. */
export interface McpToolOutput {
  content: string;
  /** The server's structuredContent, when its JSON fits in maxChars. */
  structured?: Record<string, unknown>;
  /** The text was cut at maxChars, or the structured content was left out for its size. */
  truncated: boolean;
}

/** Time the liveness check after a failed call gets. */
const ALIVE_CHECK_MS = 3000;

/**
 * Calls the server tool `toolName` (the server's own name) with the arguments, through the
 * version's shared connection. Throws ToolFailure as McpConnection.callTool does (an error
 * result is `handler_error` with its text). After a `handler_error` the connection is checked
 * (tools/list): a dead one is dropped, and the failure says the server restarts on the next
 * call. A call on a connection already closed is retried once on a fresh one.
 */
export async function runMcpTool(
  sessions: McpSessions,
  spec: McpSpec,
  toolName: string,
  args: Readonly<Record<string, unknown>>,
  ctx: McpRunContext,
): Promise<McpToolOutput> {
  const callCtx = { signal: ctx.signal, timeoutMs: ctx.timeoutMs, maxChars: ctx.maxChars };
  let conn = await sessions.get(spec, ctx);
  let result: McpCallResult;
  try {
    result = await conn.callTool(toolName, args, callCtx);
  } catch (err) {
    if (!(err instanceof ToolFailure) || !neverSent(err)) throw await checked(sessions, spec, ctx, conn, err);
    // The connection was closed before the call left: nothing ran, so once more on a fresh one.
    sessions.drop(spec, ctx, conn);
    conn = await sessions.get(spec, ctx);
    try {
      result = await conn.callTool(toolName, args, callCtx);
    } catch (again) {
      throw await checked(sessions, spec, ctx, conn, again);
    }
  }
  return forModel(result, ctx.maxChars);
}

/** The SDK's error for a request on a closed transport, and our stdio transport's: the request was never written. */
function neverSent(err: ToolFailure): boolean {
  return err.code === 'handler_error' && /: (Not connected|The MCP server is not running\.)$/.test(err.message);
}

/** After a failed call: drops a connection that no longer answers; returns the failure to throw. */
async function checked(
  sessions: McpSessions,
  spec: McpSpec,
  ctx: McpRunContext,
  conn: McpSessionConnection,
  err: unknown,
): Promise<unknown> {
  if (!(err instanceof ToolFailure) || err.code !== 'handler_error') return err;
  if (await alive(conn)) return err;
  sessions.drop(spec, ctx, conn);
  return new ToolFailure(
    'handler_error',
    `${err.message}\nThe MCP server ${conn.label} no longer answers; it is started again on the next call.`,
    // Whether the call ran before the server went is unknown: never retried for it.
    false,
    err.hint,
  );
}

async function alive(conn: McpSessionConnection): Promise<boolean> {
  try {
    await conn.listTools({ timeoutMs: ALIVE_CHECK_MS });
    return true;
  } catch {
    return false;
  }
}

function forModel(result: McpCallResult, maxChars: number): McpToolOutput {
  let truncated = result.truncated;
  let structured = result.structured;
  if (structured) {
    const json = JSON.stringify(structured) ?? '';
    if (json.length > maxChars) {
      structured = undefined;
      truncated = true;
    }
  }
  return { content: result.content, ...(structured ? { structured } : {}), truncated };
}

/** The tools a server lists, by name (for probes and the panel). */
export function toolsByName(tools: readonly McpToolInfo[]): Map<string, McpToolInfo> {
  return new Map(tools.map((t) => [t.name, t]));
}

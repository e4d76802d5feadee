import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { Script } from 'node:vm';
import { pathToFileURL } from 'node:url';
import {
  encodeLine,
  type HostToMain,
  lineSplitter,
  MainToHost,
  moduleFetchAnswer,
  moduleLayerInfo,
  parseLine,
  type HandleCall,
  type ModuleHandleName,
} from '../../../src-shared/plugins/moduleRpc.js';

/**
 * The plugin-host process of one `module` plugin version (started by moduleExecutor.ts, never
 * imported by main). It imports the plugin's module, calls its default export with the SDK,
 * answers calls, and gives each call a context holding only the handles the manifest
 * requires, each a proxy that asks main over the channel (moduleRpc.ts).
 *
 * Built as one self-contained file (zod bundled in: under Node's permission model the host
 * may read nothing but itself, the plugin and the outputs folder) — see buildPluginHost.ts.
 */

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

interface Tool {
  name: string;
  run(args: unknown, ctx: unknown): unknown;
}

// The channel is fd 1. Everything else the process prints goes to stderr, so a plugin's
// console.log cannot corrupt it (a direct write to fd 1 still can: main then kills the host).
const writeChannel = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

function send(message: HostToMain): void {
  writeChannel(encodeLine(message));
}

function fatal(why: string): never {
  process.stderr.write(`[plugin-host] ${why}\n`);
  process.exit(70);
}

let tools: Map<string, Tool> | null = null;
let granted: ModuleHandleName[] = [];
let pluginDir = '';
const running = new Map<number, AbortController>();
const pendingHandles = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
let nextHandleId = 1;

function onMessage(msg: MainToHost): void {
  switch (msg.type) {
    case 'load':
      void load(msg.entry, msg.pluginDir, msg.requires);
      return;
    case 'call':
      void call(msg.id, msg.tool, msg.args, msg.workDir);
      return;
    case 'cancel':
      running.get(msg.id)?.abort(new DOMException('The call was stopped.', 'AbortError'));
      return;
    case 'handle_reply': {
      const waiting = pendingHandles.get(msg.id);
      if (!waiting) return;
      pendingHandles.delete(msg.id);
      if (msg.ok) waiting.resolve(msg.value);
      else waiting.reject(new Error(msg.message));
    }
  }
}

async function load(entry: string, dir: string, requires: ModuleHandleName[]): Promise<void> {
  if (tools) return send({ type: 'load_error', message: 'the module is loaded already' });
  pluginDir = dir;
  granted = requires;
  try {
    const mod = (await import(pathToFileURL(entry).href)) as { default?: unknown };
    if (typeof mod.default !== 'function') throw new Error('its default export must be a function ({ defineTool }) => [tools]');
    const list: unknown = await (mod.default as (sdk: unknown) => unknown)(Object.freeze({ defineTool }));
    if (!Array.isArray(list)) throw new Error('its default export must return an array of tools (defineTool({...}))');
    const byName = new Map<string, Tool>();
    list.forEach((t: unknown, i) => {
      const tool = t as Partial<Tool> | null;
      if (!tool || typeof tool !== 'object') throw new Error(`tool ${i} is not an object`);
      if (typeof tool.name !== 'string' || !SNAKE.test(tool.name))
        throw new Error(`tool ${i}: name ${JSON.stringify(tool.name)} must be lowercase snake_case`);
      if (typeof tool.run !== 'function') throw new Error(`tool '${tool.name}': run must be a function`);
      if (byName.has(tool.name)) throw new Error(`tool '${tool.name}' is defined twice`);
      byName.set(tool.name, tool as Tool);
    });
    tools = byName;
    send({ type: 'loaded', tools: [...byName.keys()] });
  } catch (err) {
    const where = err instanceof SyntaxError ? syntaxErrorLocation(entry) : null;
    send({ type: 'load_error', message: `${describeError(err, true)}${where ? `\n${where}` : ''}` });
  }
}

/**
 * Where a syntax error in the entry is (Node's import() error carries no location). The
 * source is compiled as a script with its module syntax blanked out, columns kept; a heuristic
 * that gives `index.mjs:3` and the line, or null (the error is then in a module it imports).
 */
function syntaxErrorLocation(entry: string): string | null {
  let source: string;
  try {
    source = readFileSync(entry, 'utf8');
  } catch {
    return null;
  }
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  const script = source
    .replace(/^#!.*/, blank)
    .replace(/\bimport\s*(?:[\w*{}\s,$]+?\s*from\s*)?(['"])[^'"\n]*\1\s*;?/g, blank)
    .replace(/\bexport\s*(?:\*|\{[^}]*\})\s*(?:from\s*(['"])[^'"\n]*\1)?\s*;?/g, blank)
    .replace(/\bexport\s+default\b/g, (m) => `_$=${' '.repeat(m.length - 3)}`)
    .replace(/\bexport\b/g, blank)
    .replace(/\bimport\.meta\b/g, (m) => `({})${' '.repeat(m.length - 4)}`);
  try {
    new Script(`(async function () {\n${script}\n})`, { filename: entry, lineOffset: -1 });
    return null;
  } catch (err) {
    const first = err instanceof Error ? (err.stack ?? '').split('\n') : [];
    const at = first.findIndex((l) => l.startsWith('SyntaxError'));
    if (at <= 0) return null;
    const lineNo = /:(\d+)$/.exec(first[0] ?? '')?.[1];
    const text = lineNo ? source.split('\n')[Number(lineNo) - 1] : undefined;
    return [shorten(first[0] ?? ''), ...(text !== undefined ? [text.trimEnd()] : [])].join('\n');
  }
}

function defineTool<T>(tool: T): T {
  return tool;
}

async function call(id: number, name: string, args: unknown, workDir: string): Promise<void> {
  const tool = tools?.get(name);
  if (!tool) return send({ type: 'error', id, code: 'unknown_tool', message: `the module has no tool '${name}'` });
  const controller = new AbortController();
  running.set(id, controller);
  const ctx: Record<string, unknown> = {
    signal: controller.signal,
    workDir,
    progress: (fraction: number, message: string) => {
      const f = Number(fraction);
      send({ type: 'progress', id, fraction: Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0, message: String(message ?? '') });
    },
    log: (text: string) => send({ type: 'log', id, text: String(text) }),
  };
  if (granted.includes('project')) {
    ctx.project = Object.freeze({
      layers: async () => moduleLayerInfo.array().parse(await handle(id, { handle: 'project', method: 'layers', args: [] })),
    });
  }
  if (granted.includes('net')) {
    ctx.net = Object.freeze({
      fetch: async (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) =>
        moduleFetchAnswer.parse(
          await handle(id, {
            handle: 'net',
            method: 'fetch',
            args: init === undefined ? [String(url)] : [String(url), init],
          }),
        ),
    });
  }
  try {
    const out = await tool.run(args, Object.freeze(ctx));
    const { result, files } = splitOutput(out);
    if (controller.signal.aborted) throw controller.signal.reason;
    send({ type: 'result', id, result: toJson(result), files });
  } catch (err) {
    if (controller.signal.aborted) send({ type: 'error', id, code: 'cancelled', message: `${name} was stopped.` });
    else send({ type: 'error', id, code: 'handler_error', message: describeError(err, false) });
  } finally {
    running.delete(id);
  }
}

function handle(callId: number, request: HandleCall): Promise<unknown> {
  const id = nextHandleId++;
  return new Promise((resolve, reject) => {
    pendingHandles.set(id, { resolve, reject });
    send({ type: 'handle_request', id, call: callId, request });
  });
}

function splitOutput(out: unknown): { result: unknown; files: string[] } {
  if (out && typeof out === 'object' && !Array.isArray(out) && 'files' in out && 'result' in out) {
    const { result, files } = out as { result: unknown; files: unknown };
    if (!Array.isArray(files) || files.some((f) => typeof f !== 'string')) throw new Error('files must be a list of file names');
    return { result, files: files as string[] };
  }
  return { result: out, files: [] };
}

function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error('the tool returned something JSON cannot carry');
  return JSON.parse(text) as unknown;
}

/**
 * The error's message and the stack lines inside the plugin's folder (never the host's own).
 * A syntax error's location (the first stack line, `file:///…/index.mjs:3`) is kept too.
 */
function describeError(err: unknown, loading: boolean): string {
  if (!(err instanceof Error)) return String(err);
  const inPlugin = (line: string) => {
    const l = line.replace(/file:\/\//g, '');
    return pluginDir !== '' && (l.includes(pluginDir + sep) || l.includes(pluginDir + '/'));
  };
  const lines = (err.stack ?? '').split('\n');
  const kept: string[] = [];
  if (loading && err instanceof SyntaxError) {
    // Node puts `file:///…:LINE` and the offending source before the message.
    const at = lines.findIndex((l) => l.startsWith(`${err.name}:`));
    for (const l of lines.slice(0, Math.max(0, at))) if (l.trim()) kept.push(shorten(l));
  }
  for (const l of lines) if (/^\s+at /.test(l) && inPlugin(l)) kept.push(shorten(l));
  const head = `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}`;
  return kept.length ? `${head}\n${kept.join('\n')}` : head;
}

/** Paths in the plugin's folder as relative ones (`index.mjs:3`). */
function shorten(line: string): string {
  if (!pluginDir) return line;
  return line
    .replaceAll(pathToFileURL(pluginDir).href + '/', '')
    .replaceAll(pluginDir + sep, '')
    .replace(/\s+$/, '');
}

const splitter = lineSplitter();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of splitter.push(chunk)) {
    const parsed = parseLine(MainToHost, line);
    if (!parsed.ok) fatal(`malformed message from main: ${parsed.problem}`);
    onMessage(parsed.message);
  }
});
// Main went away: nothing left to serve.
process.stdin.on('end', () => process.exit(0));
// A promise a plugin forgot to await must not end the host silently.
process.on('unhandledRejection', (reason) => {
  send({ type: 'log', text: `unhandled rejection: ${reason instanceof Error ? describeError(reason, false) : String(reason)}` });
});

import { z } from 'zod';

/**
 * The protocol between main and a `module` plugin's host process
 * (src-main/plugins/plugin-host/pluginHostProcess.ts): one JSON object per line.
 *
 * Transport: newline-delimited JSON over the child's stdin (main → host) and stdout
 * (host → main), not `child_process.fork`'s IPC channel. The host may run inside bubblewrap
 * and as Electron-run-as-node; plain pipes pass through both unchanged, while a fork channel
 * needs the child to be `node` itself and an inherited NODE_CHANNEL_FD. The host moves
 * `process.stdout.write` (and so console.log) to stderr before it loads the plugin; a module
 * that still writes to fd 1 directly produces a line that fails this schema, and main kills
 * the host with that error.
 *
 * Every line is checked with these schemas on both sides; anything else ends the host.
 */

/** The longest line either side accepts (a result, a handle reply). */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** Handles a module may be given, and the methods of each that cross the channel. */
export const MODULE_HANDLES = ['project', 'net'] as const;
export type ModuleHandleName = (typeof MODULE_HANDLES)[number];

const id = z.int().nonnegative();

/** What `project.layers()` answers: read-only facts, never the project object. */
export const moduleLayerInfo = z.object({
  name: z.string(),
  kind: z.string(),
  source: z.string(),
  geometryType: z.string().optional(),
  featureCount: z.number().optional(),
  crs: z.string().optional(),
});
export type ModuleLayerInfo = z.infer<typeof moduleLayerInfo>;

export const moduleFetchInit = z.strictObject({
  method: z.string().max(16).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
});
export type ModuleFetchInit = z.infer<typeof moduleFetchInit>;

export const moduleFetchAnswer = z.object({
  status: z.int(),
  headers: z.record(z.string(), z.string()),
  text: z.string(),
});
export type ModuleFetchAnswer = z.infer<typeof moduleFetchAnswer>;

/** A handle method call, with its arguments typed per method. */
export const handleCall = z.discriminatedUnion('method', [
  z.strictObject({ handle: z.literal('project'), method: z.literal('layers'), args: z.tuple([]) }),
  z.strictObject({
    handle: z.literal('net'),
    method: z.literal('fetch'),
    args: z.union([z.tuple([z.string().max(8192)]), z.tuple([z.string().max(8192), moduleFetchInit])]),
  }),
]);
export type HandleCall = z.infer<typeof handleCall>;

// ─── main → host ────────────────────────────────────────────────────────────

export const MainToHost = z.union([
  /** Import the module (absolute path) and expose only `requires` on every call's context. */
  z.strictObject({ type: z.literal('load'), entry: z.string(), pluginDir: z.string(), requires: z.array(z.enum(MODULE_HANDLES)) }),
  z.strictObject({ type: z.literal('call'), id, tool: z.string(), args: z.unknown(), workDir: z.string() }),
  z.strictObject({ type: z.literal('cancel'), id }),
  /** The answer to a `handle_request` (same id). */
  z.strictObject({ type: z.literal('handle_reply'), id, ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ type: z.literal('handle_reply'), id, ok: z.literal(false), message: z.string() }),
]);
export type MainToHost = z.infer<typeof MainToHost>;

// ─── host → main ────────────────────────────────────────────────────────────

export const HostToMain = z.union([
  z.strictObject({ type: z.literal('loaded'), tools: z.array(z.string()) }),
  z.strictObject({ type: z.literal('load_error'), message: z.string() }),
  z.strictObject({ type: z.literal('result'), id, result: z.unknown(), files: z.array(z.string()) }),
  /** The codes a host may end a call with (never one that speaks for the person, like rejected_by_user). */
  z.strictObject({ type: z.literal('error'), id, code: z.enum(['handler_error', 'cancelled', 'unknown_tool']), message: z.string() }),
  z.strictObject({ type: z.literal('progress'), id, fraction: z.number(), message: z.string() }),
  z.strictObject({ type: z.literal('log'), id: id.optional(), text: z.string() }),
  /** A handle call made during call `call`; main answers with `handle_reply` of the same `id`. */
  z.strictObject({ type: z.literal('handle_request'), id, call: id, request: handleCall }),
]);
export type HostToMain = z.infer<typeof HostToMain>;

export type ParsedLine<T> = { ok: true; message: T } | { ok: false; problem: string };

/** Parses and checks one line; never throws. */
export function parseLine<T>(schema: z.ZodType<T>, line: string): ParsedLine<T> {
  if (line.length > MAX_LINE_CHARS) return { ok: false, problem: `a line of ${line.length} characters (at most ${MAX_LINE_CHARS})` };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: `not JSON: ${JSON.stringify(line.slice(0, 120))}` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : '(message)';
  return { ok: false, problem: `${where}: ${issue?.message ?? 'invalid'} in ${JSON.stringify(line.slice(0, 120))}` };
}

/** One message as a line (the caller checks it against its schema first where it is built from outside data). */
export function encodeLine(message: MainToHost | HostToMain): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Splits a text stream into lines. `push` returns the complete lines so far; a partial line
 * longer than the limit is reported as one over-long line (which then fails `parseLine`).
 */
export function lineSplitter(): { push(chunk: string): string[] } {
  let rest = '';
  return {
    push(chunk) {
      rest += chunk;
      const parts = rest.split('\n');
      rest = parts.pop() ?? '';
      if (rest.length > MAX_LINE_CHARS) {
        parts.push(rest);
        rest = '';
      }
      return parts.filter((l) => l.trim() !== '');
    },
  };
}

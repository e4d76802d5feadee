import { inspect } from 'node:util';
import { createContext } from 'node:vm';
import { lineSplitter, parseLine } from '../../src-shared/plugins/moduleRpc.js';
import { encode, FEATURE_PAGE, MainToSnippet, type CodeError, type GdalCall, type SnippetToMain } from '../code/codeProtocol.js';
import { compileSnippet, exception } from './snippetErrors.js';

/**
 * The snippet host of one `code.run_js` run (started by src-main/code/codeRunner.ts, never
 * imported by main): it runs the approved snippet once and exits.
 *
 * It is started under Node's permission model (it may read only itself and the run's
 * folder, write only that folder, start no process, worker or native addon) and, where
 * bubblewrap works, without network. The snippet runs in a fresh `vm` context whose globals are
 * only the API of snippetApi.ts — a convenience (no `require`, no `process`), not a boundary:
 * the boundaries are the permission model and the sandbox, which hold even for code that
 * reaches this realm's `process`.
 *
 * GDAL is not here (the permission model refuses native addons): each operation goes to main
 * as a `gdal` message and main relays it to the GDAL broker (codeProtocol.ts).
 */

const writeChannel = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

function send(message: SnippetToMain): void {
  writeChannel(encode(message));
}

const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
let nextId = 1;

function gdal(call: GdalCall): Promise<unknown> {
  const id = nextId++;
  // The snippet's frames at the call, for the error's stack (the reply comes on another turn).
  const origin = new Error();
  return new Promise((resolve, reject) => {
    waiting.set(id, {
      resolve,
      reject: (err) => {
        err.stack = `Error: ${err.message}\n${(origin.stack ?? '').split('\n').slice(1).join('\n')}`;
        reject(err);
      },
    });
    send({ type: 'gdal', id, call });
  });
}

// ─── printing ───────────────────────────────────────────────────────────────

let printCap = 2000;
let printedChars = 0;
function print(...values: unknown[]): void {
  const text = values.map((v) => (typeof v === 'string' ? v : inspect(v, { depth: 4, breakLength: 120 }))).join(' ') + '\n';
  const room = printCap - printedChars;
  printedChars += text.length;
  if (room > 0) send({ type: 'print', text: text.slice(0, room) });
}

// ─── the API ────────────────────────────────────────────────────────────────

interface Described {
  handle: number;
  kind: 'vector' | 'raster';
  [key: string]: unknown;
}

function vectorLayer(d: Described) {
  const { handle, ...facts } = d;
  return Object.freeze({
    ...facts,
    features(opts: { where?: string; limit?: number } = {}) {
      const where = opts?.where === undefined ? undefined : String(opts.where);
      const limit = opts?.limit === undefined ? undefined : Math.max(1, Math.floor(Number(opts.limit)));
      return {
        async *[Symbol.asyncIterator]() {
          let cursor: number | undefined;
          let left = limit ?? Infinity;
          let finished = false;
          try {
            for (;;) {
              const page = (await gdal({
                method: 'features',
                handle,
                ...(cursor === undefined ? {} : { cursor }),
                ...(where === undefined ? {} : { where }),
                limit: Math.min(FEATURE_PAGE, left),
              })) as { cursor: number; features: unknown[]; done: boolean };
              cursor = page.cursor;
              for (const f of page.features) {
                yield f;
                left--;
              }
              if (page.done) finished = true;
              if (page.done || left <= 0) return;
            }
          } finally {
            // A loop ended early (a limit, a break, an error): the broker closes its cursor.
            if (!finished && cursor !== undefined) await gdal({ method: 'features', handle, cursor, close: true });
          }
        },
      };
    },
  });
}

function rasterLayer(d: Described) {
  const { handle, ...facts } = d;
  return Object.freeze({
    ...facts,
    read: async (band: number, window?: { x: number; y: number; width: number; height: number }) =>
      gdal({ method: 'read', handle, band: Number(band), ...(window === undefined ? {} : { window: plainWindow(window) }) }),
  });
}

function plainWindow(w: { x: number; y: number; width: number; height: number }) {
  return { x: Number(w.x), y: Number(w.y), width: Number(w.width), height: Number(w.height) };
}

const layers = Object.freeze({
  list: () => gdal({ method: 'list' }),
  open: async (name: string) => {
    const d = (await gdal({ method: 'open', name: String(name) })) as Described;
    return d.kind === 'raster' ? rasterLayer(d) : vectorLayer(d);
  },
});

async function output(name: string, kind: string, spec: Record<string, unknown> = {}) {
  if (kind !== 'gpkg' && kind !== 'tif') throw new TypeError(`output kind must be 'gpkg' or 'tif', not ${JSON.stringify(kind)}`);
  const plain = JSON.parse(JSON.stringify(spec ?? {})) as Record<string, never>;
  if (kind === 'gpkg') {
    const { handle } = (await gdal({ method: 'create_vector', name: String(name), spec: plain as never })) as { handle: number };
    return Object.freeze({
      name: String(name),
      addFeatures: async (features: { geometry: unknown; properties?: Record<string, unknown> }[]) => {
        const list = [...features].map((f) => ({ geometry: f?.geometry ?? null, properties: f?.properties ?? {} }));
        // In chunks that fit a line of the channel (8 MB): at most 1,000 features or ~4 MB of JSON.
        let added = 0;
        let chunk: unknown[] = [];
        let size = 0;
        const flush = async () => {
          if (!chunk.length) return;
          added += (await gdal({ method: 'add_features', handle, features: chunk as never[] })) as number;
          chunk = [];
          size = 0;
        };
        for (const f of list) {
          const text = JSON.stringify(f);
          if (chunk.length >= 1000 || size + text.length > 4_000_000) await flush();
          chunk.push(JSON.parse(text));
          size += text.length;
        }
        await flush();
        return added;
      },
    });
  }
  const { handle } = (await gdal({ method: 'create_raster', name: String(name), spec: plain as never })) as { handle: number };
  return Object.freeze({
    name: String(name),
    write: async (band: number, window: { x: number; y: number; width: number; height: number } | undefined, values: ArrayLike<number>) => {
      await gdal({
        method: 'write',
        handle,
        band: Number(band),
        ...(window ? { window: plainWindow(window) } : {}),
        values: Array.from(values, (v) => (Number.isFinite(v) ? Number(v) : null)),
      });
    },
  });
}

const geoOp =
  (op: 'buffer' | 'area' | 'length' | 'centroid' | 'simplify' | 'intersects' | 'intersection' | 'union' | 'transform') =>
  (...args: unknown[]) =>
    gdal({ method: 'geo', op, args: JSON.parse(JSON.stringify(args)) as unknown[] });
const geo = Object.freeze({
  buffer: geoOp('buffer'),
  area: geoOp('area'),
  length: geoOp('length'),
  centroid: geoOp('centroid'),
  simplify: geoOp('simplify'),
  intersects: geoOp('intersects'),
  intersection: geoOp('intersection'),
  union: geoOp('union'),
  transform: geoOp('transform'),
});

// ─── running ────────────────────────────────────────────────────────────────

async function run(code: string): Promise<void> {
  const compiled = compileSnippet(code);
  if (!compiled.ok) return finish(compiled.error);
  const script = compiled.script;
  const context = createContext(
    {
      layers,
      output,
      geo,
      print,
      console: Object.freeze({ log: print, info: print, warn: print, error: print }),
    },
    { name: 'snippet', codeGeneration: { strings: false, wasm: false } },
  );
  try {
    await (script.runInContext(context) as Promise<unknown>);
    send({ type: 'done', printed: printedChars });
  } catch (err) {
    finish(exception(err, code.split('\n').length));
  }
  // Nothing the snippet left behind (a timer, a pending call) keeps the run going.
  setImmediate(() => process.exit(0));
}

function finish(error: CodeError): void {
  send({ type: 'failed', printed: printedChars, error });
  setImmediate(() => process.exit(0));
}

function onMessage(msg: MainToSnippet): void {
  if (msg.type === 'run') {
    printCap = msg.printCap;
    void run(msg.code);
    return;
  }
  const w = waiting.get(msg.id);
  if (!w) return;
  waiting.delete(msg.id);
  if (msg.ok) w.resolve(msg.value);
  else w.reject(new Error(msg.message));
}

const splitter = lineSplitter();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of splitter.push(chunk)) {
    const parsed = parseLine(MainToSnippet, line);
    if (!parsed.ok) {
      process.stderr.write(`[code-host] malformed message from main: ${parsed.problem}\n`);
      process.exit(70);
    }
    onMessage(parsed.message);
  }
});
process.stdin.on('end', () => process.exit(0));
process.on('unhandledRejection', () => {
  // A promise the snippet forgot to await: its failure does not end the run.
});
send({ type: 'ready' });

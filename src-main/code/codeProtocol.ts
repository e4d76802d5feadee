import { z } from 'zod';

/**
 * The protocols of a `code.run_js` run: one JSON object per line on stdio, checked with these
 * schemas on every side (the framing — lineSplitter, parseLine, the line limit — is the
 * plugin host's, src-shared/plugins/moduleRpc.ts).
 *
 *   snippet host (src-main/code-host/snippetHost.ts)  ⇄  main (codeRunner.ts)  ⇄  GDAL broker (gdalBroker.ts)
 *
 * The snippet host runs the person-approved code under Node's permission model, without any
 * native addon, so it cannot load GDAL: every GDAL operation is a `GdalCall` it sends to main,
 * which relays it to the broker and the answer back. Main is the only one that knows which
 * files are the project's layers; the broker opens only those (read-only) and writes only the
 * outputs the run created in its own folder.
 */

const id = z.int().nonnegative();
/** A name of an output (also its file name without extension): letters, digits, `_` and `-`. */
export const OUTPUT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The most pixels one `read` or `write` may move (a 512² window: its numbers fit in one line of the channel). */
export const MAX_WINDOW_PIXELS = 512 * 512;
/** The most features one `features()` page carries. */
export const FEATURE_PAGE = 500;

const geometry = z.record(z.string(), z.unknown());
const window = z.strictObject({
  x: z.int().nonnegative(),
  y: z.int().nonnegative(),
  width: z.int().positive(),
  height: z.int().positive(),
});
export type PixelWindow = z.infer<typeof window>;
/** An SRS as given by the snippet: an EPSG code or WKT/PROJ text. */
const srsInput = z.union([z.int().positive(), z.string().max(20_000)]);
export const FIELD_TYPES = ['integer', 'real', 'string', 'date'] as const;
export const RASTER_TYPES = ['Byte', 'Int16', 'UInt16', 'Int32', 'UInt32', 'Float32', 'Float64'] as const;
export const GEOMETRY_TYPES = ['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'Unknown'] as const;
export const GEO_OPS = ['buffer', 'area', 'length', 'centroid', 'simplify', 'intersects', 'intersection', 'union', 'transform'] as const;

export const vectorSpec = z.strictObject({
  geometryType: z.enum(GEOMETRY_TYPES).default('Unknown'),
  srs: srsInput.optional(),
  fields: z
    .array(z.strictObject({ name: z.string().min(1).max(64), type: z.enum(FIELD_TYPES) }))
    .max(200)
    .default([]),
});
export const rasterSpec = z.strictObject({
  width: z.int().positive().max(100_000),
  height: z.int().positive().max(100_000),
  bands: z.int().positive().max(64).default(1),
  dataType: z.enum(RASTER_TYPES).default('Float32'),
  geoTransform: z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]).optional(),
  srs: srsInput.optional(),
  nodata: z.number().nullable().optional(),
});

/** One GDAL operation the snippet asks for; `handle` numbers are the broker's. */
export const GdalCall = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('list') }),
  z.strictObject({ method: z.literal('open'), name: z.string().max(500) }),
  z.strictObject({
    method: z.literal('features'),
    handle: id,
    /** The cursor of an earlier page, or none to start one. */
    cursor: id.optional(),
    where: z.string().max(5000).optional(),
    limit: z.int().positive().optional(),
    /** Ends the cursor's iteration early (a `break`, a reached limit). */
    close: z.literal(true).optional(),
  }),
  z.strictObject({ method: z.literal('read'), handle: id, band: z.int().positive(), window: window.optional() }),
  z.strictObject({ method: z.literal('create_vector'), name: z.string(), spec: vectorSpec }),
  z.strictObject({ method: z.literal('create_raster'), name: z.string(), spec: rasterSpec }),
  z.strictObject({
    method: z.literal('add_features'),
    handle: id,
    features: z.array(z.strictObject({ geometry: geometry.nullable(), properties: z.record(z.string(), z.unknown()) })).max(10_000),
  }),
  z.strictObject({
    method: z.literal('write'),
    handle: id,
    band: z.int().positive(),
    window: window.optional(),
    values: z.array(z.number().nullable()),
  }),
  z.strictObject({ method: z.literal('geo'), op: z.enum(GEO_OPS), args: z.array(z.unknown()).max(4) }),
]);
export type GdalCall = z.infer<typeof GdalCall>;

const reply = [
  z.strictObject({ type: z.literal('gdal_reply'), id, ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ type: z.literal('gdal_reply'), id, ok: z.literal(false), message: z.string() }),
] as const;

// ─── main ⇄ snippet host ────────────────────────────────────────────────────

export const MainToSnippet = z.union([
  z.strictObject({ type: z.literal('run'), code: z.string(), printCap: z.int().positive() }),
  ...reply,
]);
export type MainToSnippet = z.infer<typeof MainToSnippet>;

/** How a run failed, as the model reads it. */
export const CodeError = z.strictObject({
  kind: z.enum(['syntax_error', 'exception', 'timeout', 'memory_limit', 'cancelled', 'crashed', 'not_allowed']),
  message: z.string(),
  /** 1-based, in the snippet (syntax errors, and the exception's innermost snippet frame). */
  line: z.int().optional(),
  column: z.int().optional(),
  /** The stack frames inside the snippet, as `at fn (line 3, column 7)`. */
  stack: z.array(z.string()).optional(),
});
export type CodeError = z.infer<typeof CodeError>;

export const SnippetToMain = z.union([
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('print'), text: z.string() }),
  z.strictObject({ type: z.literal('gdal'), id, call: GdalCall }),
  /** `printed`: how many characters the snippet printed in all (only the first `printCap` were sent). */
  z.strictObject({ type: z.literal('done'), printed: z.int().nonnegative() }),
  z.strictObject({ type: z.literal('failed'), printed: z.int().nonnegative(), error: CodeError }),
]);
export type SnippetToMain = z.infer<typeof SnippetToMain>;

// ─── main ⇄ GDAL broker ─────────────────────────────────────────────────────

export const brokerLayer = z.strictObject({
  name: z.string(),
  kind: z.string(),
  source: z.string(),
  sublayer: z.string().nullable(),
});
export type BrokerLayer = z.infer<typeof brokerLayer>;

export const MainToBroker = z.union([
  z.strictObject({ type: z.literal('init'), layers: z.array(brokerLayer), runDir: z.string() }),
  z.strictObject({ type: z.literal('call'), id, call: GdalCall }),
  /** Close (flush) every output and list them. */
  z.strictObject({ type: z.literal('finish') }),
]);
export type MainToBroker = z.infer<typeof MainToBroker>;

export const brokerOutput = z.strictObject({ name: z.string(), kind: z.enum(['gpkg', 'tif']), file: z.string() });
export type BrokerOutput = z.infer<typeof brokerOutput>;

export const BrokerToMain = z.union([
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('reply'), id, ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ type: z.literal('reply'), id, ok: z.literal(false), message: z.string() }),
  z.strictObject({ type: z.literal('finished'), outputs: z.array(brokerOutput) }),
]);
export type BrokerToMain = z.infer<typeof BrokerToMain>;

export function encode(message: MainToSnippet | SnippetToMain | MainToBroker | BrokerToMain): string {
  return `${JSON.stringify(message)}\n`;
}

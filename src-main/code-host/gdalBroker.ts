import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lineSplitter, parseLine } from '../../src-shared/plugins/moduleRpc.js';
import { checkWhere } from '../../src-shared/processing/sqlExpression.js';
import { gdal } from '../gis-worker/gdal.js';
import { geometryTypeName } from '../gis-worker/geometryType.js';
import {
  encode,
  FEATURE_PAGE,
  MainToBroker,
  MAX_WINDOW_PIXELS,
  OUTPUT_NAME,
  type rasterSpec,
  type vectorSpec,
  type BrokerLayer,
  type BrokerOutput,
  type BrokerToMain,
  type GdalCall,
  type PixelWindow,
} from '../code/codeProtocol.js';
import type { z } from 'zod';

/**
 * The GDAL broker of one `code.run_js` run (started by src-main/code/codeRunner.ts): plain
 * Node with gdal-async — the snippet host cannot load native addons under the permission
 * model — under bubblewrap where it works (no network, the file system read-only but the run's
 * folder, the app's private paths hidden).
 *
 * It trusts the snippet with nothing: it opens only the layers main named in `init`
 * (read-only, by name), creates files only in the run's folder with checked names, caps every
 * read and write, and answers only the operations of codeProtocol.ts.
 */

type Dataset = ReturnType<typeof gdal.open>;
type Layer = ReturnType<Dataset['layers']['get']>;
type Feature = ReturnType<Layer['features']['next']>;
type Srs = InstanceType<typeof gdal.SpatialReference>;
type Geometry = InstanceType<typeof gdal.Geometry>;

const writeChannel = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
function send(message: BrokerToMain): void {
  writeChannel(encode(message));
}

let layers: BrokerLayer[] = [];
let runDir = '';

interface Opened {
  kind: 'vector' | 'raster';
  ds: Dataset;
  layer?: Layer;
  entry: BrokerLayer;
}
interface Output {
  name: string;
  kind: 'gpkg' | 'tif';
  file: string;
  ds: Dataset;
  layer?: Layer;
  fields?: { name: string; type: string }[];
}
const handles = new Map<number, Opened | Output>();
const outputs: Output[] = [];
let nextHandle = 1;
/** Each iteration reads its own opening of the source, so loops over one layer can nest. */
const cursors = new Map<number, { ds: Dataset; layer: Layer; first: Feature | null }>();
const MAX_CURSORS = 16;
let nextCursor = 1;

function srsFacts(srs: Srs | null): { epsg: number | null; wkt: string } | null {
  if (!srs) return null;
  let epsg: number | null = null;
  try {
    if (srs.getAuthorityName(null)?.toUpperCase() === 'EPSG') epsg = Number.parseInt(srs.getAuthorityCode(null), 10) || null;
    else {
      const clone = srs.clone();
      clone.autoIdentifyEPSG();
      epsg = Number.parseInt(clone.getAuthorityCode(null), 10) || null;
    }
  } catch {
    epsg = null;
  }
  return { epsg, wkt: srs.toWKT() };
}

/**
 * An SRS the snippet gave: an EPSG code (number or `EPSG:n`), WKT or a PROJ string — never
 * GDAL's "user input", which also reads files and URLs.
 */
function srsFrom(input: number | string): Srs {
  try {
    if (typeof input === 'number') return gdal.SpatialReference.fromEPSG(input);
    const epsg = /^\s*EPSG:(\d+)\s*$/i.exec(input);
    if (epsg) return gdal.SpatialReference.fromEPSG(Number(epsg[1]));
    if (/^\s*\+proj=/.test(input)) return gdal.SpatialReference.fromProj4(input);
    if (/^\s*[A-Z][A-Z0-9_]*\s*\[/.test(input)) return gdal.SpatialReference.fromWKT(input);
  } catch {
    // below
  }
  throw new Error(`unknown spatial reference ${JSON.stringify(String(input).slice(0, 80))}: give an EPSG code, WKT or a PROJ string`);
}

function open(name: string): Record<string, unknown> {
  const entry = layers.find((l) => l.name === name);
  if (!entry)
    throw new Error(`no layer named ${JSON.stringify(name)} (the project has: ${layers.map((l) => l.name).join(', ') || 'none'})`);
  if (entry.kind === 'table' || entry.kind === 'vector') {
    const ds = gdal.open(entry.source, 'r');
    const layer = entry.sublayer ? ds.layers.get(entry.sublayer) : ds.layers.get(0);
    const handle = nextHandle++;
    handles.set(handle, { kind: 'vector', ds, layer, entry });
    let extent: number[] | null = null;
    try {
      const e = layer.getExtent();
      extent = [e.minX, e.minY, e.maxX, e.maxY];
    } catch {
      extent = null;
    }
    return {
      handle,
      kind: 'vector',
      name,
      fields: layer.fields.map((f) => ({ name: f.name, type: f.type })),
      featureCount: layer.features.count(),
      extent,
      srs: srsFacts(layer.srs),
      geometryType: geometryTypeName(layer.geomType),
    };
  }
  const ds = gdal.open(entry.source, 'r');
  const handle = nextHandle++;
  handles.set(handle, { kind: 'raster', ds, entry });
  const bands = ds.bands.map((b) => b);
  return {
    handle,
    kind: 'raster',
    name,
    width: ds.rasterSize.x,
    height: ds.rasterSize.y,
    bandCount: bands.length,
    geoTransform: ds.geoTransform ?? null,
    srs: srsFacts(ds.srs),
    nodata: bands.map((b) => b.noDataValue ?? null),
    dataTypes: bands.map((b) => b.dataType ?? 'unknown'),
  };
}

function vectorOf(handle: number): Opened & { layer: Layer } {
  const h = handles.get(handle);
  if (!h || 'file' in h || h.kind !== 'vector' || !h.layer) throw new Error('not an open vector layer');
  return h as Opened & { layer: Layer };
}

function openVector(entry: BrokerLayer): { ds: Dataset; layer: Layer } {
  const ds = gdal.open(entry.source, 'r');
  return { ds, layer: entry.sublayer ? ds.layers.get(entry.sublayer) : ds.layers.get(0) };
}

function features(call: Extract<GdalCall, { method: 'features' }>): unknown {
  let cursorId = call.cursor;
  if (cursorId === undefined) {
    const opened = vectorOf(call.handle);
    if (cursors.size >= MAX_CURSORS) {
      // The oldest unfinished loop gives way (resuming it is an error).
      const [oldest, c] = cursors.entries().next().value!;
      cursors.delete(oldest);
      c.ds.close();
    }
    const { ds, layer } = openVector(opened.entry);
    if (call.where !== undefined) {
      // GeoPackage hands the filter to SQLite, where file and network functions exist: the
      // app's own allow-list applies (fields, operators, safe functions only).
      let sql: string;
      try {
        sql = checkWhere(
          call.where,
          layer.fields.map((f) => f.name),
          [layer.fidColumn || 'FID', 'FID'],
        ).sql;
        layer.setAttributeFilter(sql);
      } catch (err) {
        ds.close();
        throw new Error(`bad where filter ${JSON.stringify(call.where)}: ${(err as Error).message}`);
      }
    }
    cursorId = nextCursor++;
    // first() rewinds and reads the first feature, kept for the first page.
    cursors.set(cursorId, { ds, layer, first: layer.features.first() });
  }
  const cursor = cursors.get(cursorId);
  if (call.close) {
    cursors.delete(cursorId);
    cursor?.ds.close();
    return { cursor: cursorId, features: [], done: true };
  }
  if (!cursor) throw new Error(`this feature loop was closed: more than ${MAX_CURSORS} loops were open at once`);
  const limit = Math.min(FEATURE_PAGE, call.limit ?? FEATURE_PAGE);
  const out: unknown[] = [];
  let done = false;
  while (out.length < limit) {
    const f = cursor.first ?? cursor.layer.features.next();
    cursor.first = null;
    if (!f) {
      done = true;
      break;
    }
    const g = f.getGeometry();
    out.push({ fid: f.fid, properties: f.fields.toObject(), geometry: g ? (g.toObject() as unknown) : null });
  }
  // A loop the snippet ended early (limit, break) keeps its cursor until the run ends.
  if (done) {
    cursors.delete(cursorId);
    cursor.ds.close();
  }
  return { cursor: cursorId, features: out, done };
}

function checkWindow(w: PixelWindow | undefined, width: number, height: number): PixelWindow {
  const win = w ?? { x: 0, y: 0, width, height };
  if (win.x + win.width > width || win.y + win.height > height)
    throw new Error(`window ${JSON.stringify(win)} goes beyond the raster (${width} × ${height})`);
  if (win.width * win.height > MAX_WINDOW_PIXELS)
    throw new Error(`a window of ${win.width * win.height} pixels is more than ${MAX_WINDOW_PIXELS}: read it in tiles`);
  return win;
}

function read(call: Extract<GdalCall, { method: 'read' }>): number[] {
  const h = handles.get(call.handle);
  if (!h || 'file' in h || h.kind !== 'raster') throw new Error('not an open raster layer');
  if (call.band > h.ds.bands.count()) throw new Error(`band ${call.band} does not exist (the raster has ${h.ds.bands.count()})`);
  const band = h.ds.bands.get(call.band);
  const win = checkWindow(call.window, h.ds.rasterSize.x, h.ds.rasterSize.y);
  const data = band.pixels.read(win.x, win.y, win.width, win.height, new Float64Array(win.width * win.height));
  return Array.from(data as Float64Array);
}

function outputFile(name: string, ext: string): string {
  if (!OUTPUT_NAME.test(name)) throw new Error(`output name ${JSON.stringify(name)} must be 1–64 letters, digits, _ or -`);
  if (outputs.some((o) => o.name === name)) throw new Error(`an output named ${JSON.stringify(name)} exists already in this run`);
  const file = join(runDir, `${name}.${ext}`);
  if (existsSync(file)) throw new Error(`${name}.${ext} exists already`);
  return file;
}

const OGR_FIELD: Record<string, string> = { integer: gdal.OFTInteger64, real: gdal.OFTReal, string: gdal.OFTString, date: gdal.OFTDate };
const OGR_GEOM: Record<string, number> = {
  Point: gdal.wkbPoint,
  LineString: gdal.wkbLineString,
  Polygon: gdal.wkbPolygon,
  MultiPoint: gdal.wkbMultiPoint,
  MultiLineString: gdal.wkbMultiLineString,
  MultiPolygon: gdal.wkbMultiPolygon,
  Unknown: gdal.wkbUnknown,
};

function createVector(name: string, spec: z.output<typeof vectorSpec>): unknown {
  const file = outputFile(name, 'gpkg');
  const ds = gdal.open(file, 'w', 'GPKG');
  const layer = ds.layers.create(name, spec.srs === undefined ? null : srsFrom(spec.srs), OGR_GEOM[spec.geometryType]!);
  for (const f of spec.fields) layer.fields.add(new gdal.FieldDefn(f.name, OGR_FIELD[f.type]!));
  const handle = nextHandle++;
  const out: Output = { name, kind: 'gpkg', file, ds, layer, fields: spec.fields };
  handles.set(handle, out);
  outputs.push(out);
  return { handle };
}

function addFeatures(call: Extract<GdalCall, { method: 'add_features' }>): number {
  const out = handles.get(call.handle);
  if (!out || !('file' in out) || out.kind !== 'gpkg' || !out.layer) throw new Error('not a GeoPackage output');
  const layer = out.layer;
  const known = new Set((out.fields ?? []).map((f) => f.name));
  call.features.forEach((f, i) => {
    const feature = new gdal.Feature(layer);
    for (const [k, v] of Object.entries(f.properties)) {
      if (!known.has(k)) throw new Error(`feature ${i}: no field ${JSON.stringify(k)} (declare it in output(…, { fields }))`);
      if (v !== null && v !== undefined) feature.fields.set(k, v as never);
    }
    if (f.geometry) {
      try {
        feature.setGeometry(gdal.Geometry.fromGeoJson(f.geometry as object));
      } catch (err) {
        throw new Error(`feature ${i}: not a GeoJSON geometry (${(err as Error).message})`);
      }
    }
    layer.features.add(feature);
  });
  return call.features.length;
}

const GDAL_TYPE: Record<string, string> = {
  Byte: gdal.GDT_Byte,
  Int16: gdal.GDT_Int16,
  UInt16: gdal.GDT_UInt16,
  Int32: gdal.GDT_Int32,
  UInt32: gdal.GDT_UInt32,
  Float32: gdal.GDT_Float32,
  Float64: gdal.GDT_Float64,
};

function createRaster(name: string, spec: z.output<typeof rasterSpec>): unknown {
  const file = outputFile(name, 'tif');
  const ds = gdal.open(file, 'w', 'GTiff', spec.width, spec.height, spec.bands, GDAL_TYPE[spec.dataType]!, [
    'COMPRESS=DEFLATE',
    'TILED=YES',
  ]);
  if (spec.geoTransform) ds.geoTransform = spec.geoTransform;
  if (spec.srs !== undefined) ds.srs = srsFrom(spec.srs);
  if (spec.nodata !== undefined && spec.nodata !== null) for (const b of ds.bands.map((x) => x)) b.noDataValue = spec.nodata;
  const handle = nextHandle++;
  const out: Output = { name, kind: 'tif', file, ds };
  handles.set(handle, out);
  outputs.push(out);
  return { handle };
}

function write(call: Extract<GdalCall, { method: 'write' }>): null {
  const out = handles.get(call.handle);
  if (!out || !('file' in out) || out.kind !== 'tif') throw new Error('not a GeoTIFF output');
  if (call.band > out.ds.bands.count()) throw new Error(`band ${call.band} does not exist (the output has ${out.ds.bands.count()})`);
  const win = checkWindow(call.window, out.ds.rasterSize.x, out.ds.rasterSize.y);
  if (call.values.length !== win.width * win.height)
    throw new Error(`${call.values.length} values for a window of ${win.width} × ${win.height} = ${win.width * win.height} pixels`);
  const band = out.ds.bands.get(call.band);
  const nodata = band.noDataValue ?? 0;
  const data = Float64Array.from(call.values, (v) => (v === null ? nodata : v));
  band.pixels.write(win.x, win.y, win.width, win.height, data);
  return null;
}

function geometryOf(value: unknown, what: string): Geometry {
  if (!value || typeof value !== 'object') throw new Error(`${what} must be a GeoJSON geometry`);
  try {
    return gdal.Geometry.fromGeoJson(value as object);
  } catch (err) {
    throw new Error(`${what} is not a GeoJSON geometry (${(err as Error).message})`);
  }
}

function geo(call: Extract<GdalCall, { method: 'geo' }>): unknown {
  const [a, b, c] = call.args;
  const g = geometryOf(a, 'the first argument');
  const num = (v: unknown, what: string) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${what} must be a number`);
    return v;
  };
  const json = (x: Geometry | null) => (x ? (x.toObject() as unknown) : null);
  switch (call.op) {
    case 'buffer':
      return json(g.buffer(num(b, 'distance'), c === undefined ? 8 : Math.min(64, Math.max(1, Math.floor(num(c, 'segments'))))));
    case 'area':
      return (g as unknown as { getArea?(): number }).getArea?.() ?? 0;
    case 'length':
      return (g as unknown as { getLength?(): number }).getLength?.() ?? 0;
    case 'centroid':
      return json(g.centroid());
    case 'simplify':
      return json(g.simplifyPreserveTopology(num(b, 'tolerance')));
    case 'intersects':
      return g.intersects(geometryOf(b, 'the second argument'));
    case 'intersection':
      return json(g.intersection(geometryOf(b, 'the second argument')));
    case 'union':
      return json(g.union(geometryOf(b, 'the second argument')));
    case 'transform': {
      // transformTo needs the geometry's own SRS (GeoJSON carries none).
      if (b === undefined || c === undefined) throw new Error('transform(g, from, to) needs both SRSs');
      g.srs = srsFrom(b as number | string);
      g.transformTo(srsFrom(c as number | string));
      return json(g);
    }
  }
}

function answer(call: GdalCall): unknown {
  switch (call.method) {
    case 'list':
      return layers.map((l) => ({ name: l.name, kind: l.kind }));
    case 'open':
      return open(call.name);
    case 'features':
      return features(call);
    case 'read':
      return read(call);
    case 'create_vector':
      return createVector(call.name, call.spec);
    case 'create_raster':
      return createRaster(call.name, call.spec);
    case 'add_features':
      return addFeatures(call);
    case 'write':
      return write(call);
    case 'geo':
      return geo(call);
  }
}

function finish(): void {
  const list: BrokerOutput[] = [];
  for (const o of outputs) {
    o.ds.flush();
    o.ds.close();
    list.push({ name: o.name, kind: o.kind, file: `${o.name}.${o.kind}` });
  }
  for (const h of handles.values()) if (!('file' in h)) h.ds.close();
  handles.clear();
  send({ type: 'finished', outputs: list });
}

function onMessage(msg: MainToBroker): void {
  switch (msg.type) {
    case 'init':
      layers = msg.layers;
      runDir = msg.runDir;
      return;
    case 'call':
      try {
        const value = answer(msg.call);
        send({ type: 'reply', id: msg.id, ok: true, value: value ?? null });
      } catch (err) {
        send({ type: 'reply', id: msg.id, ok: false, message: err instanceof Error ? err.message : String(err) });
      }
      return;
    case 'finish':
      try {
        finish();
      } catch (err) {
        process.stderr.write(`[gdal-broker] could not close the outputs: ${(err as Error).message}\n`);
        process.exit(71);
      }
  }
}

(gdal as unknown as { eventLoopWarning: boolean }).eventLoopWarning = false;
const splitter = lineSplitter();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of splitter.push(chunk)) {
    const parsed = parseLine(MainToBroker, line);
    if (!parsed.ok) {
      process.stderr.write(`[gdal-broker] malformed message from main: ${parsed.problem}\n`);
      process.exit(70);
    }
    onMessage(parsed.message);
  }
});
process.stdin.on('end', () => process.exit(0));
send({ type: 'ready' });

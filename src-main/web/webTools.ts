import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { formatSource } from '../../src-shared/domain/source.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool, type LoadLayerRequest, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';
import { guardedFetch, guardedFetchStream, type GuardedFetchOptions } from '../net/guardedFetch.js';
import { allowedSet, checkDestination, EgressFailed, EgressRefused, originOf } from '../net/ssrfGuard.js';
import {
  capText,
  contentKind,
  createFresh,
  decodeText,
  gisExtension,
  htmlToReadable,
  mediaType,
  safeStem,
  sniff,
  TEXT_CHARS,
  WebUrl,
} from './fetchContent.js';
import { overpassToGeoJson } from './osmConvert.js';
import {
  bboxAreaKm2,
  buildOverpassQuery,
  DEFAULT_OVERPASS_ENDPOINT,
  OsmBBox,
  OsmTag,
  OVERPASS_ENV,
  OVERPASS_SETTING,
  OVERPASS_TIMEOUT_S,
  OverpassAnswer,
} from './osmQuery.js';

/**
 * Web reads (issue #13): `web.fetch`, `web.download` and `osm.download`, all through main's
 * SSRF guard (guardedFetch: public addresses only unless the person allowed the origin, the
 * connection pinned to the checked address, every redirect checked again).
 *
 * Why two tools for a URL. Reading a page or a JSON answer changes nothing on the person's
 * computer: `web.fetch` is a `read`. Saving a GIS file into the outputs folder and adding it to
 * the map is a change the person should see named as such: `web.download` is a `write`. Both
 * are `network: true` and declare no `origins`, so the approval policy asks for every call and
 * never remembers the answer, whatever the mode: the URL comes from the model, and the dialog
 * shows it with the address it resolved to. `osm.download` writes a GeoPackage: a `write` too.
 *
 * There is no web search: no search provider is configured in Mapwright, and web.fetch's
 * description says so, so the model asks the person for a URL instead of inventing one.
 */

/** What the model reads of a page or an API: the most web.fetch downloads. */
export const TEXT_MAX_BYTES = 2 * 1024 * 1024;
/** The largest file web.download and osm.download accept. */
export const FILE_MAX_BYTES = 50 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;
export const DOWNLOAD_TIMEOUT_MS = 180_000;
const USER_AGENT = 'Mapwright (GIS assistant; +https://github.com/mapwright)';
/** Layers of one downloaded GeoPackage loaded at most. */
const MAX_LOADED_LAYERS = 10;

/** Overridable by tests: how long each tool waits, how much it reads. */
export interface WebToolLimits {
  fetchTimeoutMs?: number;
  downloadTimeoutMs?: number;
  textMaxBytes?: number;
  fileMaxBytes?: number;
}

export type WebToolDeps = Pick<ComposedToolDeps, 'outputsDir' | 'allowedOrigins'> & {
  store: { settings: { get<T>(key: string, fallback: T): T } };
  env?: NodeJS.ProcessEnv;
  limits?: WebToolLimits;
  /** DNS, for tests. */
  lookup?: GuardedFetchOptions['lookup'];
};

const NO_SEARCH =
  'There is no web search: no search provider is configured in Mapwright, so ask the person for the address ' +
  '(or use a URL they gave or one you are sure of) instead of guessing.';

const LayerName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only')
  .optional();

const FetchInput = z.object({ url: WebUrl }).strict();
const DownloadInput = z
  .object({
    url: WebUrl,
    name: LayerName.describe('File and layer name; defaults to the URL’s file name'),
  })
  .strict();
const OsmInput = z
  .object({
    bbox: OsmBBox,
    tags: z
      .array(OsmTag)
      .min(1)
      .max(5)
      .describe('Features must carry every one of these tags, e.g. [{"key":"amenity","value":"cafe"}] or [{"key":"building"}]'),
    name: LayerName.describe('Name of the new layer; defaults to osm_<key>_<value>'),
    /** Chosen by the host in prepare, inside the project's outputs folder; shown in the dialog. */
    output_path: z.string().optional().describe('Set by Mapwright; any value given is replaced'),
  })
  .strict();

export function createWebTools(deps: WebToolDeps): ToolDefinition[] {
  const limits = {
    fetchTimeoutMs: deps.limits?.fetchTimeoutMs ?? FETCH_TIMEOUT_MS,
    downloadTimeoutMs: deps.limits?.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS,
    textMaxBytes: deps.limits?.textMaxBytes ?? TEXT_MAX_BYTES,
    fileMaxBytes: deps.limits?.fileMaxBytes ?? FILE_MAX_BYTES,
  };
  const egress = { allowedOrigins: deps.allowedOrigins, ...(deps.lookup ? { lookup: deps.lookup } : {}) };
  /**
   * The guard's options for one call. Of the person's allowed (private) origins only the one
   * the URL names stays allowed: a redirect never leads into another private origin. A page's
   * redirect to another public origin (http → https, a CDN) is followed when `crossOrigin`
   * (every hop is checked again and no credentials are sent); the result names the final URL.
   */
  const egressFor = (url: string, crossOrigin: boolean): GuardedFetchOptions => {
    let own: string | null = null;
    try {
      own = originOf(url);
    } catch {
      own = null;
    }
    const allowed = allowedSet(deps.allowedOrigins);
    return {
      allowedOrigins: new Set(own && allowed.has(own) ? [own] : []),
      ...(deps.lookup ? { lookup: deps.lookup } : {}),
      allowCrossOrigin: crossOrigin,
    };
  };

  /** A GET through the guard that answered 2xx (else a failure naming the status and the start of the body). */
  const getOk = async (url: string, accept: string, budget: { maxBytes: number; timeoutMs: number }, signal: AbortSignal) => {
    let response;
    try {
      response = await guardedFetchStream(
        url,
        { headers: { 'User-Agent': USER_AGENT, Accept: accept } },
        { ...egressFor(url, true), ...budget, signal },
      );
    } catch (error) {
      throw failureOf(error, url, signal);
    }
    const contentType = response.headers.get('content-type');
    if (response.status < 200 || response.status >= 300) {
      const body = await readAll(response.body, url, signal, 64 * 1024).catch(() => Buffer.alloc(0));
      throw httpFailure(response.url, response.status, response.statusText, body, contentType);
    }
    return { response, contentType };
  };

  /** The endpoint the person configured: MAPWRIGHT_OVERPASS_URL, else the project setting, else the public one. */
  const overpassEndpoint = (): string => {
    const fromEnv = (deps.env ?? process.env)[OVERPASS_ENV]?.trim();
    if (fromEnv) return fromEnv;
    const saved = deps.store.settings.get<unknown>(OVERPASS_SETTING, null);
    return typeof saved === 'string' && saved.trim() ? saved.trim() : DEFAULT_OVERPASS_ENDPOINT;
  };

  /** The checked destination, for the dialog; a refusal ends the call before any dialog. */
  const resolve = async (url: string, what = 'the URL'): Promise<{ url: string; 'resolved host': string }> => {
    try {
      const checked = await checkDestination(url, egress);
      const host = checked.url.hostname;
      return { url: checked.url.toString(), 'resolved host': host === checked.address ? host : `${host} → ${checked.address}` };
    } catch (error) {
      throw failureOf(error, what);
    }
  };

  const fetchTool = defineTool({
    id: 'web.fetch',
    version: '1.0.0',
    group: 'web',
    icon: 'globe',
    title: 'Fetch a web page',
    description:
      'GETs one http(s) URL through Mapwright’s network guard and returns what it says: an HTML page as readable ' +
      `text (at most ${TEXT_CHARS.toLocaleString('en-US')} characters, with the total length, the title and up to 25 links), ` +
      'JSON parsed (large answers cut, with their length), or plain text. GIS files (GeoJSON, GeoPackage, GeoTIFF, ' +
      'zipped shapefile, FlatGeobuf, KML, CSV) are not read here: use web_download, which saves them and adds them to ' +
      `the map. At most ${fmtBytes(TEXT_MAX_BYTES)}. The person approves every call (it reaches the network). ` +
      NO_SEARCH,
    input: FetchInput,
    safety: 'read',
    network: true,
    exec: 'main',
    handles: [],
    timeoutMs: FETCH_TIMEOUT_MS + 10_000,
    summary: (a) => `GET ${a.url}`,
    async prepare(args) {
      return { args, preview: await resolve(args.url) };
    },
    async execute(args, { signal }) {
      const { response, contentType } = await getOk(
        args.url,
        'text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5',
        { maxBytes: limits.textMaxBytes, timeoutMs: limits.fetchTimeoutMs },
        signal,
      );
      const kind = contentKind(contentType, response.url);
      const head = { url: response.url, status: response.status, content_type: mediaType(contentType) || null };
      if (kind === 'gis' || kind === 'other') {
        response.body.destroy();
        throw new ToolFailure(
          'invalid_params',
          `${response.url} answered ${mediaType(contentType) || 'with no Content-Type'}: ${kind === 'gis' ? 'a GIS file' : 'not HTML, JSON or text'}; web_fetch reads only pages, JSON and text.`,
          false,
          kind === 'gis' ? 'Use web_download with the same URL: it saves the file and adds it to the map.' : undefined,
        );
      }
      const body = await readAll(response.body, args.url, signal);
      const text = decodeText(body, contentType);
      if (kind === 'html') {
        const page = htmlToReadable(text, response.url);
        return {
          ...head,
          kind,
          title: page.title,
          text: page.text,
          total_chars: page.total_chars,
          truncated: page.truncated,
          links: page.links,
        };
      }
      if (kind === 'json') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return { ...head, kind: 'text', note: 'Declared as JSON but not valid JSON: given as text.', ...capText(text) };
        }
        const whole = JSON.stringify(parsed);
        if (whole.length <= TEXT_CHARS) return { ...head, kind, json: parsed, total_chars: whole.length, truncated: false };
        return {
          ...head,
          kind,
          json_text: `${whole.slice(0, TEXT_CHARS)}…`,
          total_chars: whole.length,
          truncated: true,
          outline: outlineOf(parsed),
          ...(looksLikeGeoJson(parsed) ? { hint: 'This is GeoJSON: web_download adds it to the map.' } : {}),
        };
      }
      return { ...head, kind, ...capText(text) };
    },
  });

  const downloadTool = defineTool({
    id: 'web.download',
    version: '1.0.0',
    group: 'web',
    icon: 'download',
    title: 'Download a GIS file',
    description:
      'Downloads one GIS file from an http(s) URL through Mapwright’s network guard into the project outputs folder ' +
      '(a new file, never over another) and adds it to the map: GeoJSON, GeoPackage (each layer, at most 10), GeoTIFF, ' +
      `zipped shapefile, FlatGeobuf, KML, GPX or CSV. At most ${fmtBytes(FILE_MAX_BYTES)}. Returns the saved path and ` +
      'the layers added. For a web page or an API answer, use web_fetch. The person approves every call. ' +
      NO_SEARCH,
    input: DownloadInput,
    safety: 'write',
    network: true,
    exec: 'main',
    handles: ['gdal'],
    timeoutMs: DOWNLOAD_TIMEOUT_MS + 30_000,
    summary: (a) => `Download ${a.url}`,
    async prepare(args) {
      return { args, preview: { ...(await resolve(args.url)), 'saved into': deps.outputsDir() } };
    },
    async execute(args, { handles, signal, progress }) {
      const { response, contentType } = await getOk(
        args.url,
        '*/*',
        { maxBytes: limits.fileMaxBytes, timeoutMs: limits.downloadTimeoutMs },
        signal,
      );
      const dir = deps.outputsDir();
      mkdirSync(dir, { recursive: true });
      const iterator = response.body[Symbol.asyncIterator]();
      let first: Buffer;
      try {
        const step = await iterator.next();
        first = step.done ? Buffer.alloc(0) : (step.value as Buffer);
      } catch (error) {
        throw failureOf(error, args.url, signal);
      }
      // A page is refused unless its first bytes are a GIS file (a .geojson served as text/html).
      const ext = contentKind(contentType, response.url) === 'html' ? sniff(first) : gisExtension(contentType, response.url, first);
      if (!ext) {
        response.body.destroy();
        throw new ToolFailure(
          'invalid_params',
          `${response.url} is not a GIS file Mapwright reads (${mediaType(contentType) || 'no Content-Type'}).`,
          false,
          'For a web page or an API answer use web_fetch; web_download takes GeoJSON, GeoPackage, GeoTIFF, zipped shapefile, FlatGeobuf, KML, GPX or CSV.',
        );
      }
      const { path, handle } = await createFresh(dir, safeStem(args.name, response.url), ext);
      const declared = Number(response.headers.get('content-length')) || null;
      let written = 0;
      try {
        try {
          for (let chunk: Buffer | null = first; chunk;) {
            await handle.write(chunk);
            written += chunk.length;
            if (declared) progress(Math.min(0.95, written / declared), `Downloaded ${fmtBytes(written)}`);
            const step = await iterator.next();
            chunk = step.done ? null : (step.value as Buffer);
          }
        } finally {
          await handle.close();
        }
        if (written === 0) throw new ToolFailure('handler_error', `${response.url} answered with an empty body.`, false);
        const layers = await layersOf(handles.gdal, path, ext, args.name, signal);
        return {
          url: response.url,
          saved: path,
          bytes: written,
          content_type: mediaType(contentType) || null,
          layers: layers.map((l) => l.name ?? l.path),
          load_layers: layers,
        };
      } catch (error) {
        await rm(path, { force: true });
        if (error instanceof ToolFailure) throw error;
        throw failureOf(error, args.url, signal);
      }
    },
  });

  const osmTool = defineTool({
    id: 'osm.download',
    version: '1.0.0',
    group: 'web',
    icon: 'map',
    title: 'Download OpenStreetMap features',
    description:
      'Downloads OpenStreetMap features inside a bbox that carry every given tag (nodes, ways and relations, e.g. ' +
      '[{"key":"amenity","value":"cafe"}] or [{"key":"highway"}]) from the Overpass endpoint the person configured ' +
      `(default the public overpass-api.de), and adds them to the map as one new GeoPackage layer in EPSG:4326 ` +
      '(points, lines and polygons together; fields osm_type, osm_id, the tags, and other_tags as JSON for rare ones). ' +
      `The bbox is [west, south, east, north] in degrees, at most ${(10_000).toLocaleString('en-US')} km². ` +
      'Returns the layer, its feature count by geometry and the query sent. The person approves every call.',
    input: OsmInput,
    safety: 'write',
    network: true,
    exec: 'main',
    handles: ['project', 'gdal'],
    timeoutMs: (OVERPASS_TIMEOUT_S + 120) * 1000,
    summary: (a) =>
      `OpenStreetMap ${a.tags.map((t) => (t.value === undefined ? t.key : `${t.key}=${t.value}`)).join(' + ')} in [${a.bbox.join(', ')}]`,
    async prepare(args, { handles }) {
      const endpoint = overpassEndpoint();
      const valid = WebUrl.safeParse(endpoint);
      if (!valid.success) {
        throw new ToolFailure(
          'not_allowed',
          `The Overpass endpoint setting ${JSON.stringify(endpoint)} is not usable: ${valid.error.issues[0]?.message ?? 'invalid'}.`,
          false,
          `Set ${OVERPASS_SETTING} (or ${OVERPASS_ENV}) to an http(s) Overpass interpreter URL such as ${DEFAULT_OVERPASS_ENDPOINT}.`,
        );
      }
      const checked = await resolve(endpoint, 'the Overpass endpoint');
      const name = args.name ?? defaultOsmName(args.tags);
      const outputPath = handles.project.outputPath(name, 'gpkg');
      const bbox = args.bbox as [number, number, number, number];
      return {
        args: { ...args, name, output_path: outputPath },
        preview: {
          endpoint: checked.url,
          'resolved host': checked['resolved host'],
          query: buildOverpassQuery(bbox, args.tags),
          'bbox area': `${formatArea(bboxAreaKm2(bbox))} km²`,
          output: outputPath,
        },
      };
    },
    async execute(args, { handles, signal, progress }) {
      const endpoint = overpassEndpoint();
      const bbox = args.bbox as [number, number, number, number];
      const query = buildOverpassQuery(bbox, args.tags);
      const name = args.name ?? defaultOsmName(args.tags);
      const outputPath = args.output_path ?? handles.project.outputPath(name, 'gpkg');
      progress(0.05, 'Asking Overpass');
      let response;
      try {
        response = await guardedFetch(
          endpoint,
          {
            method: 'POST',
            headers: {
              'User-Agent': USER_AGENT,
              Accept: 'application/json',
              'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
            },
            body: new URLSearchParams({ data: query }).toString(),
          },
          { ...egressFor(endpoint, false), maxBytes: limits.fileMaxBytes, timeoutMs: limits.downloadTimeoutMs, signal },
        );
      } catch (error) {
        throw failureOf(error, endpoint, signal);
      }
      if (response.status < 200 || response.status >= 300) {
        throw httpFailure(endpoint, response.status, response.statusText, response.body, response.headers.get('content-type'), true);
      }
      let json: unknown;
      try {
        json = JSON.parse(response.body.toString('utf8'));
      } catch {
        throw new ToolFailure(
          'handler_error',
          `The Overpass endpoint ${endpoint} did not answer JSON (${mediaType(response.headers.get('content-type')) || 'no Content-Type'}).`,
          false,
          `Check the ${OVERPASS_SETTING} setting: it must be an Overpass API interpreter URL.`,
        );
      }
      const answer = OverpassAnswer.safeParse(json);
      if (!answer.success) {
        const issue = answer.error.issues[0];
        throw new ToolFailure(
          'handler_error',
          `The answer of ${endpoint} is not an Overpass JSON answer (${issue ? `${issue.path.join('.') || 'root'}: ${issue.message}` : 'unexpected shape'}).`,
          false,
        );
      }
      const remark = answer.data.remark;
      if (remark && /error/i.test(remark)) {
        throw new ToolFailure(
          'handler_error',
          `Overpass could not finish the query: ${remark.slice(0, 300)}`,
          true,
          'Try a smaller bbox or a narrower tag filter.',
        );
      }
      progress(0.5, 'Converting to GeoJSON');
      const { geojson, counts, folded } = overpassToGeoJson(answer.data);
      const base = { endpoint, query, elements: answer.data.elements.length };
      if (geojson.features.length === 0) {
        return {
          ...base,
          feature_count: 0,
          note: 'No OpenStreetMap feature in this bbox carries these tags: nothing was added to the map.',
        };
      }
      const temp = await mkdtemp(join(tmpdir(), 'mapwright-osm-'));
      try {
        const geojsonPath = join(temp, `${name}.geojson`);
        await writeFile(geojsonPath, JSON.stringify(geojson));
        const result = await handles.gdal.call(
          'processing.run',
          {
            algorithm: 'convert_format',
            params: { input: geojsonPath, format: 'gpkg' },
            output: formatSource({ path: outputPath, sublayer: name }),
          },
          { signal, progress: (f, m) => progress(0.5 + f / 2, m), hint: 'The OpenStreetMap answer could not be written as a GeoPackage.' },
        );
        return {
          ...base,
          output: result.output,
          feature_count: result.featureCount,
          by_geometry: counts,
          ...(folded ? { note: `${folded} rare tag keys are kept in the other_tags field (JSON).` } : {}),
          ...(remark ? { remark } : {}),
          load_layers: [{ path: result.output, name, info: result.info }],
        };
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    },
  });

  return [fetchTool, downloadTool, osmTool];
}

/** The layers of a downloaded file, checked by GDAL (in the worker) before the host loads them. */
async function layersOf(
  gdal: GdalHandle,
  path: string,
  ext: string,
  name: string | undefined,
  signal: AbortSignal,
): Promise<LoadLayerRequest[]> {
  const hint = 'The file was downloaded but GDAL cannot read it: the URL may not point at the file itself.';
  if (ext === '.gpkg') {
    const { layers } = await gdal.call('layers.list_sublayers', { path }, { signal, hint });
    const usable = layers.filter((l) => l.kind !== 'table' || layers.length === 1).slice(0, MAX_LOADED_LAYERS);
    if (!usable.length) throw new ToolFailure('handler_error', `${path} holds no layers.`, false);
    return usable.map((l) => ({ path: formatSource({ path, sublayer: l.name }), name: usable.length === 1 && name ? name : l.name }));
  }
  const source = ext === '.zip' ? `/vsizip/${path}` : path;
  const info = await gdal.call('layers.describe', { source }, { signal, hint });
  return [{ path: source, ...(name ? { name } : {}), info }];
}

/** How a failure of the guard or the connection reads for the model. */
function failureOf(error: unknown, what: string, signal?: AbortSignal): Error {
  if (signal?.aborted && !(error instanceof EgressFailed || error instanceof EgressRefused)) return error as Error;
  if (error instanceof ToolFailure) return error;
  if (error instanceof EgressRefused) {
    const tooLarge = /larger than/.test(error.message);
    return new ToolFailure(
      tooLarge ? 'handler_error' : 'not_allowed',
      error.message,
      false,
      tooLarge
        ? 'The answer is over the size limit; ask for a smaller file or area.'
        : 'Use a public http(s) address, or ask the person to allow this origin in Settings.',
    );
  }
  if (error instanceof EgressFailed) {
    const timedOut = /within \d+ ms/.test(error.message);
    return new ToolFailure(timedOut ? 'timeout' : 'handler_error', error.message, true);
  }
  return new ToolFailure('handler_error', `Fetching ${what} failed: ${error instanceof Error ? error.message : String(error)}`, false);
}

function httpFailure(
  url: string,
  status: number,
  statusText: string,
  body: Buffer,
  contentType: string | null,
  overpass = false,
): ToolFailure {
  const snippet = decodeText(body.subarray(0, 4000), contentType)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  const busy = status === 429 || status === 503 || status === 504;
  return new ToolFailure(
    'handler_error',
    `${url} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${snippet ? `: ${snippet}` : ''}`,
    busy,
    overpass && busy ? 'The Overpass server is busy or the query took too long: wait a minute, or use a smaller bbox.' : undefined,
  );
}

async function readAll(body: Readable, what: string, signal: AbortSignal, max = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= max) {
        body.destroy();
        break;
      }
    }
  } catch (error) {
    throw failureOf(error, what, signal);
  }
  return Buffer.concat(chunks);
}

/** A few facts about a large JSON answer: its top-level keys or its length. */
function outlineOf(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { type: 'array', length: value.length };
  if (value && typeof value === 'object') return { type: 'object', keys: Object.keys(value).slice(0, 50) };
  return { type: typeof value };
}

function looksLikeGeoJson(value: unknown): boolean {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'FeatureCollection' || type === 'Feature';
}

function defaultOsmName(tags: readonly OsmTag[]): string {
  const first = tags[0]!;
  return `osm_${first.key}${first.value ? `_${first.value}` : ''}`
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_+$/g, '')
    .slice(0, 60);
}

function formatArea(km2: number): string {
  return km2 >= 10 ? Math.round(km2).toLocaleString('en-US') : km2.toFixed(2);
}

function fmtBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${Math.round(n / 1024)} KB`;
}

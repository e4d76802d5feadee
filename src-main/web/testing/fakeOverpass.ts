import type { ServerResponse } from 'node:http';
import { startRecordingServer, type ReceivedRequest, type RecordingServer } from '../../net/testing/recordingServer.js';

/**
 * For tests: a loopback Overpass API. It reads the `data=` form field of a POST as Overpass
 * does, parses the tag filters of the query the way Overpass's QL lexer reads quoted strings
 * (escapes included), records both, and answers `answer` (an Overpass JSON answer shaped like
 * the real one) — or what `override` says.
 */

export interface ParsedFilter {
  key: string;
  value?: string;
}

export interface OverpassRequest {
  query: string;
  /** The tag filters of the `nwr` statement, as Overpass would read them; null when the query is not one. */
  filters: ParsedFilter[] | null;
  /** The bbox of the statement: south, west, north, east. */
  bbox: number[] | null;
  /** What follows the statement (`out body; >; out skel qt;`); anything else would be an injection. */
  rest: string | null;
}

export interface FakeOverpass extends RecordingServer {
  /** `origin + '/api/interpreter'`. */
  endpoint: string;
  queries: OverpassRequest[];
}

/** A real-shaped answer: two café nodes, a café building (closed way), a multipolygon relation, a line, and their nodes. */
export const OVERPASS_SAMPLE = {
  version: 0.6,
  generator: 'Overpass API 0.7.62.1 (fake for tests)',
  osm3s: { timestamp_osm_base: '2026-11-30T12:00:00Z', copyright: 'The data included in this document is from www.openstreetmap.org.' },
  elements: [
    {
      type: 'node',
      id: 1001,
      lat: 52.5201,
      lon: 13.4051,
      tags: { amenity: 'cafe', name: 'Café Einstein', 'name:en': 'Einstein Coffee', cuisine: 'coffee_shop' },
    },
    {
      type: 'node',
      id: 1002,
      lat: 52.521,
      lon: 13.407,
      tags: { amenity: 'cafe', name: 'Kaffee "Süd"', Name: 'duplicate key in another case' },
    },
    { type: 'way', id: 2001, nodes: [3001, 3002, 3003, 3004, 3001], tags: { amenity: 'cafe', building: 'yes', name: 'Pavillon' } },
    { type: 'way', id: 2003, nodes: [3009, 3010, 3011], tags: { amenity: 'cafe', highway: 'footway', name: 'Kiosk row' } },
    {
      type: 'relation',
      id: 4001,
      members: [{ type: 'way', ref: 2002, role: 'outer' }],
      tags: { type: 'multipolygon', amenity: 'cafe', name: 'Hofgarten' },
    },
    { type: 'way', id: 2002, nodes: [3005, 3006, 3007, 3008, 3005] },
    { type: 'node', id: 3001, lat: 52.522, lon: 13.401 },
    { type: 'node', id: 3002, lat: 52.522, lon: 13.402 },
    { type: 'node', id: 3003, lat: 52.523, lon: 13.402 },
    { type: 'node', id: 3004, lat: 52.523, lon: 13.401 },
    { type: 'node', id: 3005, lat: 52.515, lon: 13.41 },
    { type: 'node', id: 3006, lat: 52.515, lon: 13.412 },
    { type: 'node', id: 3007, lat: 52.517, lon: 13.412 },
    { type: 'node', id: 3008, lat: 52.517, lon: 13.41 },
    { type: 'node', id: 3009, lat: 52.518, lon: 13.4 },
    { type: 'node', id: 3010, lat: 52.5185, lon: 13.401 },
    { type: 'node', id: 3011, lat: 52.519, lon: 13.4015 },
  ],
};

export async function startFakeOverpass(
  answer: unknown = OVERPASS_SAMPLE,
  override?: (req: OverpassRequest, res: ServerResponse) => boolean,
): Promise<FakeOverpass> {
  const queries: OverpassRequest[] = [];
  const server = await startRecordingServer((req: ReceivedRequest, res) => {
    if (req.method !== 'POST' || !req.url.startsWith('/api/interpreter')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    const query = new URLSearchParams(req.body).get('data') ?? '';
    const parsed = { query, ...parseQuery(query) };
    queries.push(parsed);
    if (override?.(parsed, res)) return;
    if (!parsed.filters) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<html><body><p>Error: line 1: parse error</p></body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  return { ...server, endpoint: `${server.origin}/api/interpreter`, queries };
}

/**
 * The `nwr[…][…](s,w,n,e);` statement of a query, read as Overpass's lexer reads it: a quoted
 * string ends at the first unescaped quote; `\\`, `\"`, `\n`, `\t`, `\uXXXX` are escapes.
 */
export function parseQuery(query: string): Omit<OverpassRequest, 'query'> {
  const start = query.indexOf('nwr');
  if (start < 0) return { filters: null, bbox: null, rest: null };
  let i = start + 3;
  const filters: ParsedFilter[] = [];
  const readString = (): string | null => {
    if (query[i] !== '"') return null;
    let out = '';
    for (i++; i < query.length; i++) {
      const ch = query[i]!;
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch === '\\') {
        const next = query[++i];
        if (next === 'n') out += '\n';
        else if (next === 't') out += '\t';
        else if (next === 'u') {
          out += String.fromCharCode(parseInt(query.slice(i + 1, i + 5), 16));
          i += 4;
        } else out += next ?? '';
      } else out += ch;
    }
    return null;
  };
  while (query[i] === '[') {
    i++;
    const key = readString();
    if (key === null) return { filters: null, bbox: null, rest: null };
    if (query[i] === ']') {
      i++;
      filters.push({ key });
      continue;
    }
    if (query[i] !== '=') return { filters: null, bbox: null, rest: null };
    i++;
    const value = readString();
    if (value === null || query[i] !== ']') return { filters: null, bbox: null, rest: null };
    i++;
    filters.push({ key, value });
  }
  const box = /^\(([-\d.,]+)\);/.exec(query.slice(i));
  if (!box) return { filters: null, bbox: null, rest: null };
  return { filters, bbox: box[1]!.split(',').map(Number), rest: query.slice(i + box[0].length).trim() };
}

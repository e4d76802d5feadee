import { z } from 'zod';

/**
 * osm.download's boundary: the bbox and tag filter it accepts, the Overpass QL built from them
 * (every key and value written as an escaped QL string, never pasted in), and the shape of the
 * Overpass JSON answer, checked before anything else reads it.
 */

export const DEFAULT_OVERPASS_ENDPOINT = 'https://overpass-api.de/api/interpreter';
/** The project setting (store.settings) that names the Overpass endpoint. */
export const OVERPASS_SETTING = 'web.overpassEndpoint';
/** Overrides the setting for the whole app (a self-hosted Overpass, tests). */
export const OVERPASS_ENV = 'MAPWRIGHT_OVERPASS_URL';
/** The largest bbox osm.download asks for, in km² (about 100 km × 100 km). */
export const MAX_BBOX_KM2 = 10_000;
export const OVERPASS_TIMEOUT_S = 90;

const EARTH_RADIUS_KM = 6371.0088;

/** A tag key or value: printable text, no control characters (QL strings are escaped anyway). */
const tagText = (what: string) =>
  z
    .string()
    .min(1)
    .max(255)
    // eslint-disable-next-line no-control-regex -- the point is to refuse control characters
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), `${what} must not contain control characters (new lines, tabs…)`);

export const OsmTag = z
  .object({
    key: tagText('a tag key').describe('OSM tag key, e.g. "amenity", "building", "highway"'),
    value: tagText('a tag value').optional().describe('Exact value, e.g. "cafe"; leave out to match any value of the key'),
  })
  .strict();
export type OsmTag = z.infer<typeof OsmTag>;

export const OsmBBox = z
  .tuple([
    z.number().min(-180).max(180).describe('west (longitude)'),
    z.number().min(-90).max(90).describe('south (latitude)'),
    z.number().min(-180).max(180).describe('east (longitude)'),
    z.number().min(-90).max(90).describe('north (latitude)'),
  ])
  .describe('[west, south, east, north] in WGS 84 degrees')
  .superRefine(([w, s, e, n], ctx) => {
    if (w >= e) ctx.addIssue({ code: 'custom', message: 'west must be less than east (a bbox across the antimeridian is not supported)' });
    if (s >= n) ctx.addIssue({ code: 'custom', message: 'south must be less than north' });
    if (w < e && s < n) {
      const area = bboxAreaKm2([w, s, e, n]);
      if (area > MAX_BBOX_KM2) {
        ctx.addIssue({
          code: 'custom',
          message: `the bbox covers about ${Math.round(area).toLocaleString('en-US')} km²; at most ${MAX_BBOX_KM2.toLocaleString('en-US')} km² may be downloaded at once: use a smaller area`,
        });
      }
    }
  });
export type OsmBBox = [number, number, number, number];

/** The area of a lon/lat box on the sphere, in km². */
export function bboxAreaKm2([w, s, e, n]: readonly [number, number, number, number]): number {
  const rad = Math.PI / 180;
  return EARTH_RADIUS_KM ** 2 * Math.abs((e - w) * rad) * Math.abs(Math.sin(n * rad) - Math.sin(s * rad));
}

/** A QL string literal: backslash, quote and the escapes Overpass knows, so no text ever leaves the quotes. */
export function qlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch < ' ' || ch === '\u007f') out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Degrees as QL numbers: plain decimals (never exponents), at most 7 places (OSM's own precision). */
function qlNumber(x: number): string {
  return String(Number(x.toFixed(7)));
}

/**
 * Nodes, ways and relations inside the bbox that carry every tag of the filter, with the nodes
 * and ways their geometry needs (`>`), as JSON.
 */
export function buildOverpassQuery(bbox: OsmBBox, tags: readonly OsmTag[], timeoutS = OVERPASS_TIMEOUT_S): string {
  const [w, s, e, n] = bbox;
  const filter = tags.map((t) => (t.value === undefined ? `[${qlString(t.key)}]` : `[${qlString(t.key)}=${qlString(t.value)}]`)).join('');
  const box = `(${[s, w, n, e].map(qlNumber).join(',')})`;
  return [`[out:json][timeout:${timeoutS}];`, `nwr${filter}${box};`, 'out body;', '>;', 'out skel qt;'].join('\n');
}

const Tags = z.record(z.string(), z.string());
const OsmNode = z.object({ type: z.literal('node'), id: z.number().int(), lat: z.number(), lon: z.number(), tags: Tags.optional() });
const OsmWay = z.object({ type: z.literal('way'), id: z.number().int(), nodes: z.array(z.number().int()), tags: Tags.optional() });
const OsmRelation = z.object({
  type: z.literal('relation'),
  id: z.number().int(),
  members: z.array(z.object({ type: z.enum(['node', 'way', 'relation']), ref: z.number().int(), role: z.string() })),
  tags: Tags.optional(),
});

/** The Overpass JSON answer (`[out:json]`): what osmtogeojson reads, nothing more trusted. */
export const OverpassAnswer = z.object({
  version: z.number().optional(),
  generator: z.string().optional(),
  osm3s: z.record(z.string(), z.unknown()).optional(),
  /** Set when the query ran out of time or memory: the elements are then incomplete. */
  remark: z.string().optional(),
  elements: z.array(z.discriminatedUnion('type', [OsmNode, OsmWay, OsmRelation])),
});
export type OverpassAnswer = z.infer<typeof OverpassAnswer>;

import { ONLINE_BASEMAP } from '../../src-shared/domain/settingsDisplay.js';
import type { DataResponse } from '../composition/services.js';
import { guardedFetch } from '../net/guardedFetch.js';

export interface OnlineBasemapOptions {
  /** The person's setting, read at every request: off answers 404 and fetches nothing. */
  enabled(): boolean;
  /** The tile template; OpenStreetMap's unless a test points it at a loopback server. */
  template?: string;
  /** The person's non-public origins for the SSRF guard (a test's loopback server). */
  allowedOrigins?: ReadonlySet<string>;
  /** At most this many tiles kept in memory (the hosts also let the page cache them for a day). */
  memoryTiles?: number;
}

const USER_AGENT = 'Mapwright/0.1 (desktop GIS assistant; online basemap)';

/**
 * The online basemap's tiles, fetched by main for the map (`tiles/basemap-online/Z/X/Y.png`).
 *
 * Why through main and not from the page: the renderer's CSP stays `'self'` whatever the
 * setting, so no page code can reach the network; main fetches exactly one fixed template,
 * only while the setting is on, with the SSRF guard (no private addresses, no redirects to
 * other origins), a size cap and a User-Agent naming the app, as the OSM tile policy asks.
 * These are not GDAL reads, so they do not pass the worker's egress gate; the setting is the
 * person's approval of this one origin.
 */
export function createOnlineBasemapRoute(o: OnlineBasemapOptions) {
  const template = o.template ?? ONLINE_BASEMAP.template;
  const limit = o.memoryTiles ?? 512;
  const memory = new Map<string, DataResponse>();
  return async function onlineBasemapTile(z: number, x: number, y: number): Promise<DataResponse> {
    if (!o.enabled()) return text(404, 'The online basemap is off (Settings).');
    const n = 2 ** z;
    if (!Number.isInteger(z) || z < 0 || z > ONLINE_BASEMAP.maxZoom || x < 0 || y < 0 || x >= n || y >= n)
      return text(404, 'No such tile.');
    const key = `${z}/${x}/${y}`;
    const kept = memory.get(key);
    if (kept) {
      memory.delete(key);
      memory.set(key, kept);
      return kept;
    }
    const url = template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
    try {
      const res = await guardedFetch(
        url,
        { headers: { 'User-Agent': USER_AGENT, Accept: 'image/png,image/jpeg,image/webp' } },
        {
          maxRedirects: 1,
          maxBytes: 2 * 1024 * 1024,
          timeoutMs: 20_000,
          ...(o.allowedOrigins ? { allowedOrigins: o.allowedOrigins } : {}),
        },
      );
      const type = res.headers.get('content-type') ?? '';
      if (res.status !== 200 || !/^image\/(png|jpeg|webp)\b/.test(type)) return text(502, 'The online basemap did not answer with a tile.');
      const answer: DataResponse = {
        status: 200,
        contentType: type.split(';')[0]!,
        body: res.body,
        headers: { 'Cache-Control': 'private, max-age=86400' },
      };
      memory.set(key, answer);
      if (memory.size > limit) memory.delete(memory.keys().next().value!);
      return answer;
    } catch (err) {
      console.error(`[basemap] ${key}: ${err instanceof Error ? err.message : String(err)}`);
      return text(502, 'The online basemap could not be reached.');
    }
  };
}

function text(status: number, body: string): DataResponse {
  return { status, contentType: 'text/plain', body };
}

import type { CallResult } from '../../src-shared/worker/workerCalls.js';
import { styleHash } from '../../src-shared/style/compileShared.js';
import { etagMatches, REVALIDATE, weakETag } from './httpCaching.js';
import type { DataRequest, DataResponse } from './services.js';
import { sourceIdentity } from '../gis-worker/sourceIdentity.js';
import type { TileCache } from './tileCache.js';

/** The worker's answer to `display.vector_tile` (checked by the client on arrival). */
type VectorTileReply = CallResult<'display.vector_tile'>;

export interface VectorTileQuery {
  source: string;
  /**
   * An edited layer's data revision (null for a layer read from its own file). Part of the key:
   * an edit may leave the working copy's size and mtime as they were (a value changed in place
   * within one clock tick), and the tile must still be made again.
   */
  revision: number | null;
  /** The fields the style reads (they travel in the tile, so they are part of its key). */
  fields: readonly string[];
  z: number;
  x: number;
  y: number;
}

const PBF = 'application/x-protobuf';

/**
 * One vector tile as a data response, as raster tiles are served (rasterTileRoute.ts): a 304
 * when the browser's copy is current, else from the tile cache or made by `render`. Keyed by
 * the source's identity and the fields carried, not the URL's `v-HASH`. A freshly made tile
 * says what thinning did to it in `X-Mapwright-Tile` (kept, dropped, bytes); a cached one says
 * `cached`.
 */
export async function vectorTileResponse(
  q: VectorTileQuery,
  request: DataRequest,
  cache: TileCache | null,
  render: () => Promise<VectorTileReply>,
): Promise<DataResponse> {
  let made: VectorTileReply | null = null;
  const produce = async () => {
    made = await render();
    return made.pbf;
  };
  const stats = () => (made ? `kept=${made.kept}; dropped=${made.dropped}; bytes=${made.pbf.byteLength}` : 'cached');
  const identity = await sourceIdentity(q.source);
  if (identity === null) {
    const pbf = await produce();
    return { status: 200, contentType: PBF, body: pbf, headers: { 'Cache-Control': 'no-store', 'X-Mapwright-Tile': stats() } };
  }
  const fields = styleHash([...q.fields]);
  const etag = weakETag('vector-tile', identity, fields, String(q.revision ?? ''));
  if (etagMatches(request.ifNoneMatch, etag))
    return { status: 304, contentType: PBF, body: '', headers: { ETag: etag, 'Cache-Control': REVALIDATE } };
  const pbf = cache ? await cache.cached(['vector-tile', identity, fields, q.revision, q.z, q.x, q.y], produce) : await produce();
  return {
    status: 200,
    contentType: PBF,
    body: pbf ?? new Uint8Array(0),
    headers: { ETag: etag, 'Cache-Control': REVALIDATE, 'X-Mapwright-Tile': stats() },
  };
}

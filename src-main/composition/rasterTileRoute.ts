import type { RasterStyle } from '../../src-shared/style/styleModel.js';
import { styleHash } from '../../src-shared/style/compileShared.js';
import { etagMatches, REVALIDATE, weakETag } from './httpCaching.js';
import type { DataRequest, DataResponse } from './services.js';
import { sourceIdentity } from '../gis-worker/sourceIdentity.js';
import type { TileCache } from './tileCache.js';

export interface RasterTileQuery {
  source: string;
  style: RasterStyle;
  z: number;
  x: number;
  y: number;
}

/**
 * One raster tile as a data response: a 304 when the browser's copy is current, else from
 * the tile cache or rendered by `render` (the worker). Keyed and validated by the source's
 * identity (path, size, mtime, stat'ed here in main) and the style actually applied — not
 * the URL's `s-HASH`, which only busts caches. A source whose identity cannot be known (a
 * network layer) is neither cached nor validated.
 */
export async function rasterTileResponse(
  q: RasterTileQuery,
  request: DataRequest,
  cache: TileCache | null,
  render: () => Promise<Uint8Array | null>,
  emptyTile: Uint8Array,
): Promise<DataResponse> {
  const identity = await sourceIdentity(q.source);
  if (identity === null) {
    const png = await render();
    return { status: 200, contentType: 'image/png', body: png ?? emptyTile, headers: { 'Cache-Control': 'no-store' } };
  }
  const style = styleHash(q.style);
  const headers = { ETag: weakETag('raster-tile', identity, style), 'Cache-Control': REVALIDATE };
  if (etagMatches(request.ifNoneMatch, headers.ETag)) return { status: 304, contentType: 'image/png', body: '', headers };
  const png = cache ? await cache.cached(['raster-tile', identity, style, q.z, q.x, q.y], render) : await render();
  return { status: 200, contentType: 'image/png', body: png ?? emptyTile, headers };
}

import { etagMatches, REVALIDATE, weakETag } from './httpCaching.js';
import type { DataRequest, DataResponse } from './services.js';
import { sourceIdentity } from '../gis-worker/sourceIdentity.js';
import type { TileCache } from './tileCache.js';

/** Bumped when the tiles' encoding changes, so cached tiles of the old one are not served. */
const DEM_TILE_FORMAT = 'terrarium-2';

export interface DemTileQuery {
  source: string;
  band: number;
  /** Height of nodata and of the ground around the DEM. */
  ground: number;
  z: number;
  x: number;
  y: number;
}

/**
 * One raster-dem tile as a data response, cached and validated like the colour tiles
 * (rasterTileRoute.ts) by the source's identity, but under keys of their own (`dem-tile`, the
 * encoding, the band): a DEM's colour tile and its elevation tile never share an entry.
 */
export async function demTileResponse(
  q: DemTileQuery,
  request: DataRequest,
  cache: TileCache | null,
  render: () => Promise<Uint8Array>,
): Promise<DataResponse> {
  const identity = await sourceIdentity(q.source);
  if (identity === null) return { status: 200, contentType: 'image/png', body: await render(), headers: { 'Cache-Control': 'no-store' } };
  const headers = { ETag: weakETag('dem-tile', identity, DEM_TILE_FORMAT, String(q.band), String(q.ground)), 'Cache-Control': REVALIDATE };
  if (etagMatches(request.ifNoneMatch, headers.ETag)) return { status: 304, contentType: 'image/png', body: '', headers };
  const png = cache ? await cache.cached(['dem-tile', DEM_TILE_FORMAT, identity, q.band, q.ground, q.z, q.x, q.y], render) : await render();
  // The cache's type allows null (an empty colour tile); `render` never gives one.
  return { status: 200, contentType: 'image/png', body: png ?? (await render()), headers };
}

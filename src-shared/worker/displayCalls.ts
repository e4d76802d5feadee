import { z } from 'zod';
import { attributeMethods, MAX_FEATURES_BY_ID, MAX_PAGE_ROWS, RowsPage } from '../bridge/attributeContract.js';
import { RasterStyle } from '../style/styleModel.js';
import { workerCall } from './callSpec.js';
import { Source } from './layerCalls.js';

/** Bytes as they cross the process boundary (structured clone keeps the view type). */
const Bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'expected bytes');
const Tile = { z: z.number().int().min(0).max(24), x: z.number().int().min(0), y: z.number().int().min(0) };
const Prepare = z.object({ source: Source });
/** Feature ids past what a renderer request may name are refused, as on the bridge. */
const Fids = z.array(z.number().int()).max(MAX_FEATURES_BY_ID);
const Where = z.string().max(2000);

/** The display family: what the map draws and the attribute table shows. */
export const DISPLAY_CALLS = {
  /** Every feature reprojected to EPSG:4326, as GeoJSON text (small layers). */
  'display.geojson': workerCall({
    params: z.object({ source: Source }),
    result: z.string(),
    doing: (p) => `loading the features of ${p.source}`,
  }),
  /** One 256×256 Web Mercator tile of a raster, styled: PNG bytes, or null outside the raster. */
  'display.raster_tile': workerCall({
    params: z.object({ source: Source, ...Tile, style: RasterStyle }),
    result: Bytes.nullable(),
    doing: (p) => `drawing tile ${p.z}/${p.x}/${p.y} of ${p.source}`,
  }),
  /** One 256×256 Web Mercator tile of a band's elevations, Terrarium-encoded PNG (0 m where there is no data). */
  'display.dem_tile': workerCall({
    params: z.object({ source: Source, ...Tile, band: z.number().int().min(1), ground: z.number().finite().optional() }),
    result: Bytes,
    doing: (p) => `reading elevations for tile ${p.z}/${p.x}/${p.y} of ${p.source}`,
  }),
  /** One Mapbox Vector Tile with the fields the style reads; `kept`/`dropped` count the thinning. */
  'display.vector_tile': workerCall({
    params: z.object({ source: Source, ...Tile, fields: z.array(z.string()).max(50) }),
    result: z.object({ pbf: Bytes, kept: z.number().int(), dropped: z.number() }),
    doing: (p) => `drawing vector tile ${p.z}/${p.x}/${p.y} of ${p.source}`,
  }),
  /** Makes a vector source ready for tiles and the table (an indexed copy in the cache when needed). */
  'display.prepare_vector': workerCall({
    params: Prepare,
    result: z.object({ cached: z.boolean(), count: z.number().int() }),
    doing: (p) => `indexing ${p.source} for display`,
  }),
  /** Builds a large raster's missing overviews into the cache; `overviews`: the levels built or found. */
  'display.prepare_raster': workerCall({
    params: Prepare,
    result: z.object({ overviews: z.number().int() }),
    doing: (p) => `building overviews of ${p.source}`,
  }),
  /** A page of the attribute table, filtered (allow-listed SQL) and ordered. */
  'table.rows': workerCall({
    params: z.object({
      source: Source,
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(MAX_PAGE_ROWS),
      orderBy: z.object({ field: z.string().min(1), descending: z.boolean() }).nullable(),
      where: Where.nullable(),
    }),
    result: RowsPage,
  }),
  /** Features by id, in EPSG:4326, with their bbox. */
  'table.features': workerCall({ params: z.object({ source: Source, fids: Fids }), result: attributeMethods['layers/features'].result }),
  /** The ids matching a filter, up to `cap`. */
  'table.ids_where': workerCall({
    params: z.object({ source: Source, where: Where.min(1), cap: z.number().int().min(1).max(MAX_FEATURES_BY_ID) }),
    result: attributeMethods['layers/select-ids'].result,
  }),
};

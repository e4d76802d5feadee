import { vectorToGeoJSON } from '../vectorToGeoJSON.js';
import { renderDemTile } from '../renderDemTile.js';
import { renderRasterTile } from '../renderRasterTile.js';
import { ensureOverviewSet } from '../overviewCache.js';
import { attributeRows, featuresById, idsWhere } from '../tables/attributeRows.js';
import { servedTable } from '../tables/servedTable.js';
import { vectorTile } from '../tiles/vectorTile.js';
import type { WorkerFamily } from './types.js';

/** The display family (src-shared/worker/displayCalls.ts): what the map draws. */
export const DISPLAY_FUNCTIONS: WorkerFamily<'display'> = {
  'display.geojson': (a, ctx) => vectorToGeoJSON(a.source, ctx.signal, ctx.progress),
  'display.raster_tile': async (a, ctx) => {
    const png = await renderRasterTile(ctx.rasters, a, ctx.signal);
    // A plain Uint8Array view: it structured-clones the same under fork and utilityProcess.
    return png ? new Uint8Array(png.buffer, png.byteOffset, png.byteLength) : null;
  },
  'display.dem_tile': async (a, ctx) => {
    const png = await renderDemTile(ctx.rasters, a, ctx.signal);
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  },
  'display.vector_tile': (a, ctx) => vectorTile(a, ctx.signal),
  /** The cached GeoPackage copy when the source is not an indexed GeoPackage, with progress. */
  'display.prepare_vector': async (a, ctx) => {
    const table = await servedTable(a.source, { signal: ctx.signal, progress: ctx.progress });
    return { cached: table.cached, count: table.count };
  },
  /** Overviews go to the cache, never beside the source. */
  'display.prepare_raster': async (a, ctx) => {
    const set = await ensureOverviewSet(a.source, { signal: ctx.signal, progress: ctx.progress });
    return { overviews: set?.levels.length ?? 0 };
  },
};

/** The attribute table's reads, on the same served table as the tiles. */
export const TABLE_FUNCTIONS: WorkerFamily<'table'> = {
  'table.rows': (a, ctx) => attributeRows(a, ctx.signal),
  'table.features': (a, ctx) => featuresById(a.source, a.fids, ctx.signal),
  'table.ids_where': (a, ctx) => idsWhere(a.source, a.where, a.cap, ctx.signal),
};

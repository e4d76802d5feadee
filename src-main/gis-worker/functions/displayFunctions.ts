import { z } from 'zod';
import { MAX_FEATURES_BY_ID, MAX_PAGE_ROWS } from '../../../src-shared/bridge/attributeContract.js';
import { BadInputError } from '../errors.js';
import { attributeRows, featuresById, idsWhere } from '../tables/attributeRows.js';
import { ensureOverviewSet } from '../overviewCache.js';
import { servedTable } from '../tables/servedTable.js';
import { vectorTile } from '../tiles/vectorTile.js';
import type { WorkerFunction } from './types.js';

const Source = z.string().min(1);
const TileArgs = z.object({
  source: Source,
  z: z.number().int().min(0).max(24),
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  fields: z.array(z.string()).max(50),
});
const RowsArgs = z.object({
  source: Source,
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(MAX_PAGE_ROWS),
  orderBy: z.object({ field: z.string().min(1), descending: z.boolean() }).nullable(),
  where: z.string().max(2000).nullable(),
});
const FeaturesArgs = z.object({ source: Source, fids: z.array(z.number().int()).max(MAX_FEATURES_BY_ID) });
const IdsArgs = z.object({ source: Source, where: z.string().min(1).max(2000), cap: z.number().int().min(1).max(MAX_FEATURES_BY_ID) });
const PrepareArgs = z.object({ source: Source });

function parse<T>(schema: z.ZodType<T>, args: unknown, name: string): T {
  const r = schema.safeParse(args);
  if (!r.success) throw new BadInputError(`${name}: ${r.error.issues[0]?.message ?? 'invalid arguments'}`);
  return r.data;
}

/** Worker functions of the map display and the attribute table, by name. */
export const DISPLAY_FUNCTIONS: Record<string, WorkerFunction> = {
  /** One Mapbox Vector Tile: `{ pbf, kept, dropped }`. */
  'display.vector_tile': (args, ctx) => vectorTile(parse(TileArgs, args, 'display.vector_tile'), ctx.signal),
  /**
   * Makes a vector source ready for tiles and the table (its cached GeoPackage copy when it is
   * not an indexed GeoPackage), with progress. `{ cached }`.
   */
  'display.prepare_vector': async (args, ctx) => {
    const { source } = parse(PrepareArgs, args, 'display.prepare_vector');
    const table = await servedTable(source, { signal: ctx.signal, progress: ctx.progress });
    return { cached: table.cached, count: table.count };
  },
  /**
   * Builds a large raster's missing overviews into the cache (never beside the source), with
   * progress, so its zoomed-out tiles read them. `{ overviews }`: the levels built or found.
   */
  'display.prepare_raster': async (args, ctx) => {
    const { source } = parse(PrepareArgs, args, 'display.prepare_raster');
    const set = await ensureOverviewSet(source, { signal: ctx.signal, progress: ctx.progress });
    return { overviews: set?.levels.length ?? 0 };
  },
  'table.rows': (args, ctx) => attributeRows(parse(RowsArgs, args, 'table.rows'), ctx.signal),
  'table.features': (args, ctx) => {
    const a = parse(FeaturesArgs, args, 'table.features');
    return featuresById(a.source, a.fids, ctx.signal);
  },
  'table.ids_where': (args, ctx) => {
    const a = parse(IdsArgs, args, 'table.ids_where');
    return idsWhere(a.source, a.where, a.cap, ctx.signal);
  },
};

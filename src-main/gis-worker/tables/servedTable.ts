import { createHash } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset } from 'gdal-async';
import type { BBox } from '../../../src-shared/domain/layer.js';
import { quoteIdentifier as q, quoteLiteral } from '../../../src-shared/sql/quote.js';
import { workerCacheDir } from '../cacheDir.js';
import { looksLikeDegrees } from '../crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { layerExtent } from '../layerExtent.js';
import { layerSrs } from '../layerSrs.js';
import { sourceIdentity } from '../sourceIdentity.js';
import { openSource } from '../openSource.js';
import type { ProgressFn } from '../progressThrottle.js';

/**
 * A vector source as a GeoPackage table with a spatial index, which is what the attribute table,
 * identify and vector tiles read with SQLite's own SQL: the source itself when it is a GeoPackage
 * table with its R-tree, otherwise a copy in the worker's cache made once by GDAL (feature ids
 * kept, so ids mean the same everywhere). The source is never written.
 */
export interface ServedTable {
  /** The GeoPackage file read. */
  path: string;
  table: string;
  fidColumn: string;
  /** Null for a table without geometry. */
  geomColumn: string | null;
  /** The R-tree of the geometry column (`rtree_<table>_<geom>`), null without geometry. */
  rtree: string | null;
  /** The CRS as WKT; null when the source has none (then coordinates are taken as degrees). */
  srsWkt: string | null;
  fields: { name: string; type: string }[];
  /** True when this is a copy in the cache rather than the source itself. */
  cached: boolean;
  /** Rows in the table. */
  count: number;
  /** Extent of the geometries (from the R-tree) in the table's CRS; null without geometry or rows. */
  extent: BBox | null;
  /** Lowest and highest feature id; null for an empty table. */
  fidRange: { min: number; max: number } | null;
}

const served = new Map<string, Promise<ServedTable>>();

/** The served table of a source; concurrent callers share one build. Failed builds are retried next time. */
export async function servedTable(source: string, ctx: { signal?: AbortSignal; progress?: ProgressFn } = {}): Promise<ServedTable> {
  // A source whose file cannot be stat'ed (a network one) is keyed by its text alone.
  const key = (await sourceIdentity(source)) ?? source;
  let pending = served.get(key);
  if (!pending) {
    pending = resolveServed(source, key, ctx);
    served.set(key, pending);
    pending.catch(() => served.delete(key));
  }
  return pending;
}

async function resolveServed(source: string, key: string, ctx: { signal?: AbortSignal; progress?: ProgressFn }): Promise<ServedTable> {
  const opened = await openSource(source);
  try {
    if (opened.kind !== 'vector') throw new BadInputError(`${opened.path} is a raster: it has no attribute table`);
    const direct = await directTable(opened.ds, opened.layer.name, opened.path);
    if (direct) return direct;
    return await buildCopy(opened.ds, opened.layer.name, opened.path, key, ctx);
  } finally {
    opened.ds.close();
  }
}

/** The source's own table when it is a GeoPackage table whose geometry has an R-tree. */
async function directTable(ds: Dataset, name: string, path: string): Promise<ServedTable | null> {
  if (ds.driver.description !== 'GPKG') return null;
  const layer = ds.layers.get(name);
  const geomColumn = layer.geomType === gdal.wkbNone ? null : layer.geomColumn || null;
  const rtree = geomColumn ? `rtree_${name}_${geomColumn}` : null;
  const kinds = await ds.executeSQLAsync(`SELECT data_type FROM gpkg_contents WHERE table_name = ${quoteLiteral(name)}`);
  const kind = (await kinds.features.firstAsync())?.fields.get('data_type');
  if (kind !== 'features' && kind !== 'attributes') return null; // a view or something GDAL made up
  if (rtree) {
    const found = await ds.executeSQLAsync(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ${quoteLiteral(rtree)}`);
    if (!(await found.features.firstAsync())) return null;
  }
  if (!layer.fidColumn) return null;
  const srs = geomColumn ? await layerSrs(ds, name) : null;
  // Each of these is an index lookup (min/max of the primary key, the counts GDAL keeps in
  // gpkg_ogr_contents, the extent in gpkg_contents), not a scan: a million rows cost nothing here.
  const fid = q(layer.fidColumn);
  const lo = (await firstRow(ds, `SELECT min(${fid}) AS v FROM ${q(name)}`)).v;
  const hi = (await firstRow(ds, `SELECT max(${fid}) AS v FROM ${q(name)}`)).v;
  const count = Math.max(0, await layer.features.countAsync(false));
  const extent = geomColumn ? layerExtent(layer, false) : null;
  return {
    path,
    table: name,
    fidColumn: layer.fidColumn,
    geomColumn,
    rtree,
    srsWkt: srs?.toWKT() ?? null,
    fields: fieldsOf(ds, name),
    cached: false,
    count,
    extent: extent && extent.every(Number.isFinite) ? extent : null,
    fidRange: Number.isFinite(lo) && Number.isFinite(hi) ? { min: lo!, max: hi! } : null,
  };
}

/** The first row of a query as numbers (NaN for NULL). */
async function firstRow(ds: Dataset, sql: string): Promise<Record<string, number | undefined>> {
  const rows = await ds.executeSQLAsync(sql);
  const f = await rows.features.firstAsync();
  const out: Record<string, number> = {};
  if (f)
    for (const [k, v] of Object.entries(f.fields.toObject() as Record<string, unknown>))
      out[k] = v === null || v === undefined ? NaN : Number(v);
  return out;
}

const COPY_TABLE = 'features';

/** GDAL copies the layer into a GeoPackage in the cache (with an R-tree), reporting progress. */
async function buildCopy(
  ds: Dataset,
  name: string,
  path: string,
  key: string,
  ctx: { signal?: AbortSignal; progress?: ProgressFn },
): Promise<ServedTable> {
  const dir = workerCacheDir('tables');
  const file = join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.gpkg`);
  const existing = await openCopy(file);
  if (existing) return existing;

  const layer = ds.layers.get(name);
  const srs = layer.geomType === gdal.wkbNone ? null : await layerSrs(ds, name);
  const args = [
    '-f',
    'GPKG',
    '-preserve_fid',
    '-nln',
    COPY_TABLE,
    '-lco',
    'FID=fid',
    '-lco',
    'GEOMETRY_NAME=geom',
    '-lco',
    'SPATIAL_INDEX=YES',
    '-gt',
    '65536',
  ];
  // A source without a CRS whose values look like degrees (CSV lon/lat) is drawn as WGS 84.
  if (!srs && layer.geomType !== gdal.wkbNone && looksLikeDegrees(layerExtent(layer, false))) args.push('-a_srs', 'EPSG:4326');
  args.push(name);
  const partial = `${file}.${process.pid}.partial`;
  ctx.progress?.(0, 'Indexing features for display');
  try {
    const out = await gdal.vectorTranslateAsync(partial, ds, args, {
      progress_cb: (f: number) => {
        if (ctx.signal?.aborted) return 0; // GDAL stops when the callback answers 0
        ctx.progress?.(Math.min(1, Math.max(0, f)), 'Indexing features for display');
        return 1;
      },
    });
    out.close();
    throwIfCancelled(ctx.signal);
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throwIfCancelled(ctx.signal);
    throw new BadInputError(`Cannot index the features of ${path} for display: ${gdalReason(err, path)}`);
  }
  const built = await openCopy(file);
  if (!built) throw new Error(`The display index of ${path} was written but cannot be read back`);
  return built;
}

async function openCopy(file: string): Promise<ServedTable | null> {
  let ds: Dataset;
  try {
    ds = await gdal.openAsync(file, 'r');
  } catch {
    return null;
  }
  try {
    const table = await directTable(ds, COPY_TABLE, file);
    return table ? { ...table, cached: true } : null;
  } finally {
    ds.close();
  }
}

function fieldsOf(ds: Dataset, name: string): { name: string; type: string }[] {
  const fields: { name: string; type: string }[] = [];
  ds.layers.get(name).fields.forEach((f) => {
    fields.push({ name: f.name, type: f.type });
  });
  return fields;
}

import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Dataset, SpatialReference } from 'gdal-async';
import { quoteLiteral } from '../../../src-shared/sql/quote.js';
import { BadInputError, gdalReason } from '../errors.js';
import { looksLikeDegrees, wgs84 } from '../crs.js';
import { gdal } from '../gdal.js';
import { flatGeometryType } from '../geometryType.js';
import { openVectorInput, type VectorInput } from './vectorInput.js';

/**
 * A private scratch GeoPackage in a temp folder where the SQL algorithms work. Inputs are
 * copied in by GDAL (ogr2ogr) under fixed names — table `a`, `b`, …, geometry column `geom`,
 * FID `fid`, an R-tree each — so one SQL text works whatever the source format, and a second
 * layer in another CRS is reprojected on the way in. GDAL's GeoPackage driver runs SQLite SQL
 * natively there, with SpatiaLite's ST_* functions on GeoPackage geometries.
 */

export interface FieldSpec {
  name: string;
  /** GDAL field type name: 'integer', 'integer64', 'real', 'string', 'date', … */
  type: string;
  width: number;
  precision: number;
}

/** 0 points, 1 lines, 2 polygons; null when the layer has no geometry. */
export type Dimension = 0 | 1 | 2 | null;

export interface StagedLayer {
  table: string;
  /** Where the original came from, for messages. */
  source: string;
  fields: FieldSpec[];
  dimension: Dimension;
  /** The header's OGR type without Z/M (3 Polygon, 6 MultiPolygon, …; 0 unknown, 100 none). */
  geometryType: number;
  srs: SpatialReference | null;
  count: number;
  minFid: number;
  maxFid: number;
  /** Name of the R-tree virtual table of `geom`, for bbox pre-filters. */
  rtree: string | null;
  /** A CSV without CRS whose coordinates look like degrees was taken as WGS 84 (say so). */
  assumedWgs84: boolean;
}

const DELIMITED = /\.(csv|tsv)$/i;

/**
 * A source's CRS, or WGS 84 for delimited text whose coordinates look like degrees — a CSV
 * cannot say what its CRS is, and lon/lat columns are what people put there (as describe does).
 */
export function sourceSrs(input: VectorInput): { srs: SpatialReference | null; assumed: boolean } {
  if (input.srs || !DELIMITED.test(input.path) || input.layer.geomType === gdal.wkbNone) return { srs: input.srs, assumed: false };
  try {
    const e = input.layer.getExtent();
    if (looksLikeDegrees([e.minX, e.minY, e.maxX, e.maxY])) return { srs: wgs84(), assumed: true };
  } catch {
    // No extent (no features): nothing to assume.
  }
  return { srs: null, assumed: false };
}

export function assumedNote(layer: Pick<StagedLayer, 'assumedWgs84' | 'source'>): string[] {
  return layer.assumedWgs84
    ? [`${path.basename(layer.source)} has no CRS; its coordinates look like degrees, so WGS 84 (EPSG:4326) was assumed`]
    : [];
}

export interface StageOptions {
  /** Reproject into this CRS (only when it differs from the layer's own). */
  targetSrs?: SpatialReference | null;
  /** GEOS MakeValid on the way in: overlays fail on self-intersecting polygons otherwise. */
  makeValid?: boolean;
  /** Only these fields (real names); default all. */
  fields?: string[];
  /** GDAL's own progress of the copy, 0..1. */
  onProgress?: (fraction: number) => void;
}

const PREFIX = 'mapwright-work-';
const STALE_MS = 24 * 3600_000;
let sweepStale: Promise<void> | null = null;

/**
 * A worker killed mid-job (Stop on a long GDAL call) cannot remove its workspace; the first
 * workspace of a later worker removes those left for more than a day. Best effort.
 */
async function sweepStaleWorkspaces(): Promise<void> {
  try {
    const now = Date.now();
    for (const name of await readdir(tmpdir())) {
      if (!name.startsWith(PREFIX)) continue;
      const dir = path.join(tmpdir(), name);
      const st = await stat(dir).catch(() => null);
      if (st && now - st.mtimeMs > STALE_MS) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  } catch {
    // Nothing to sweep, or no permission: not our data to worry about.
  }
}

export class Workspace {
  private ds: Dataset | null = null;
  private created = false;

  private constructor(
    readonly dir: string,
    readonly file: string,
  ) {}

  static async create(): Promise<Workspace> {
    sweepStale ??= sweepStaleWorkspaces();
    const dir = await mkdtemp(path.join(tmpdir(), PREFIX));
    return new Workspace(dir, path.join(dir, 'work.gpkg'));
  }

  /** Copies a layer in as `table`; the caller has already checked cancellation. */
  async stage(input: VectorInput, table: string, opts: StageOptions = {}): Promise<StagedLayer> {
    this.closeDataset();
    const own = sourceSrs(input);
    const reproject = opts.targetSrs && own.srs && !own.srs.isSame(opts.targetSrs);
    const args = [
      ...(this.created ? ['-update'] : ['-f', 'GPKG']),
      '-nln',
      table,
      '-lco',
      'GEOMETRY_NAME=geom',
      '-lco',
      'FID=fid',
      ...(reproject ? ['-s_srs', own.srs!.toWKT(), '-t_srs', opts.targetSrs!.toWKT()] : own.assumed ? ['-a_srs', 'EPSG:4326'] : []),
      ...(opts.makeValid ? ['-makevalid'] : []),
      ...(opts.fields ? ['-select', opts.fields.join(',')] : []),
      input.layer.name,
    ];
    try {
      const out = await gdal.vectorTranslateAsync(
        this.file,
        input.ds,
        args,
        opts.onProgress ? { progress_cb: (f: number) => opts.onProgress!(Math.min(1, Math.max(0, f))) } : {},
      );
      out.close();
    } catch (err) {
      throw new BadInputError(`Cannot read ${input.path}: ${gdalReason(err, input.path)}`);
    }
    this.created = true;
    const ds = this.dataset();
    const layer = ds.layers.get(table);
    const fields = layer.fields.map((f) => ({ name: f.name, type: f.type, width: f.width, precision: f.precision }));
    const hasGeometry = layer.geomType !== gdal.wkbNone;
    const stats = await this.row(`SELECT COUNT(*) AS n, MIN(fid) AS lo, MAX(fid) AS hi FROM ${table}`);
    return {
      table,
      source: input.path,
      fields,
      dimension: hasGeometry ? await this.dimensionOf(table, layer.geomType) : null,
      geometryType: flatGeometryType(layer.geomType),
      srs: reproject ? opts.targetSrs! : own.srs,
      count: Number(stats.n ?? 0),
      minFid: Number(stats.lo ?? 1),
      maxFid: Number(stats.hi ?? 0),
      rtree: hasGeometry ? `rtree_${table}_geom` : null,
      assumedWgs84: own.assumed,
    };
  }

  /**
   * The polygons of a staged layer merged into one area (GEOS cascaded union) and split into
   * its disjoint parts, each cut into pieces of at most `maxVertices` vertices (SpatiaLite's
   * ST_Subdivide), as `table` with an R-tree: what a clip cuts by. A feature then meets a few
   * small pieces instead of one overlay polygon of any size. Handed over in memory. Null when
   * the layer has no polygon to merge.
   */
  async stageDissolved(from: StagedLayer, table: string, maxVertices: number): Promise<StagedLayer | null> {
    const present = 'geom IS NOT NULL AND NOT ST_IsEmpty(geom) AND ST_Dimension(geom) = 2';
    // An empty result would leave GDAL no geometry to recognise the column by.
    if (Number((await this.row(`SELECT COUNT(*) AS n FROM ${from.table} WHERE ${present}`)).n ?? 0) === 0) return null;
    const merged = `CollectionExtract(ST_UnaryUnion(ST_Collect(geom)), 3)`;
    const translate = (area: string): Promise<Dataset> =>
      gdal.vectorTranslateAsync(`${table}_parts`, this.dataset(), [
        '-f',
        'Memory',
        '-nln',
        table,
        '-explodecollections',
        '-nlt',
        'POLYGON',
        '-sql',
        `SELECT * FROM (SELECT ${area} AS geom FROM ${from.table} WHERE ${present} LIMIT -1 OFFSET 0) WHERE geom IS NOT NULL`,
      ]);
    let parts: Dataset;
    try {
      try {
        parts = await translate(`ST_Subdivide(${merged}, ${Math.max(8, Math.round(maxVertices))})`);
      } catch (err) {
        // A SpatiaLite built without RTTOPO has no ST_Subdivide: whole parts work, only slower.
        if (!/no such function/i.test(gdalReason(err))) throw err;
        parts = await translate(merged);
      }
    } catch (err) {
      throw new BadInputError(`Cannot merge the polygons of ${path.basename(from.source)}: ${gdalReason(err)}`);
    }
    try {
      const input: VectorInput = { ds: parts, layer: parts.layers.get(0), path: from.source, srs: from.srs, close: () => parts.close() };
      const staged = await this.stage(input, table);
      return { ...staged, srs: from.srs, assumedWgs84: from.assumedWgs84 };
    } finally {
      parts.close();
    }
  }

  /**
   * Makes a GeoPackage on disk readable by the workspace's SQL as `alias`.table, read-only, so a
   * SELECT can join it to staged tables without copying it. Lasts until the next stage().
   */
  attach(file: string, alias: string): void {
    try {
      this.dataset().executeSQL(`ATTACH DATABASE ${quoteLiteral(file)} AS ${alias}`);
    } catch (err) {
      // gdal-async throws for every statement without a result set; GDAL's message is empty when it succeeded.
      const reason = gdalReason(err);
      if (reason) throw new Error(`Could not attach ${file} to the workspace: ${reason}`);
    }
  }

  /** The scratch GeoPackage, opened read-only for queries (reopened after each stage). */
  dataset(): Dataset {
    this.ds ??= gdal.open(this.file, 'r');
    return this.ds;
  }

  /**
   * Rows of a query, on a handle of its own closed at once: a result set left to the garbage
   * collector would make it wait for whatever GDAL call then runs on the shared handle.
   */
  async rows(sql: string): Promise<Record<string, unknown>[]> {
    const ds = await gdal.openAsync(this.file, 'r');
    try {
      let layer;
      try {
        layer = await ds.executeSQLAsync(sql);
      } catch (err) {
        throw new Error(`SQL failed: ${gdalReason(err)}\n${sql}`);
      }
      const rows: Record<string, unknown>[] = [];
      for (let f = layer.features.first(); f; f = layer.features.next()) rows.push(f.fields.toObject() as Record<string, unknown>);
      return rows;
    } finally {
      ds.close();
    }
  }

  async row(sql: string): Promise<Record<string, unknown>> {
    return (await this.rows(sql))[0] ?? {};
  }

  /**
   * Writes a plain table (no geometry) into the workspace, e.g. values computed in JS that a
   * SELECT then joins. `rows` hold values in field order; null/undefined stay empty.
   */
  async writeTable(table: string, fields: FieldSpec[], rows: Iterable<readonly unknown[]>): Promise<void> {
    this.closeDataset();
    const ds = this.created
      ? await gdal.openAsync(this.file, 'r+')
      : await gdal.drivers.get('GPKG').createAsync(this.file, 0, 0, 0, gdal.GDT_Unknown);
    this.created = true;
    try {
      const layer = ds.layers.create(table, null, gdal.wkbNone);
      for (const f of fields) layer.fields.add(new gdal.FieldDefn(f.name, f.type));
      for (const row of rows) {
        const feature = new gdal.Feature(layer);
        row.forEach((value, i) => {
          if (value !== null && value !== undefined) feature.fields.set(i, value as string);
        });
        layer.features.add(feature);
      }
    } finally {
      ds.close();
    }
  }

  /**
   * SpatiaLite's geodesic functions (GeodesicLength, ST_Area(g, 1)) look the ellipsoid up in
   * its own `spatial_ref_sys` table, which a GeoPackage lacks: without it they print "unknown
   * SRID" for every vertex and crawl. A one-row table for EPSG:4326 is all they need.
   */
  async enableGeodesic(): Promise<void> {
    const col = (name: string, type: string): FieldSpec => ({ name, type, width: 0, precision: 0 });
    await this.writeTable(
      'spatial_ref_sys',
      [
        col('srid', 'integer'),
        col('auth_name', 'string'),
        col('auth_srid', 'integer'),
        col('ref_sys_name', 'string'),
        col('proj4text', 'string'),
        col('srtext', 'string'),
      ],
      [[4326, 'EPSG', 4326, 'WGS 84', '+proj=longlat +datum=WGS84 +no_defs', '']],
    );
  }

  async dispose(): Promise<void> {
    this.closeDataset();
    await rm(this.dir, { recursive: true, force: true });
  }

  private closeDataset(): void {
    this.ds?.close();
    this.ds = null;
  }

  /** From the header type, or — for "Unknown"/collections — from what the features hold. */
  private async dimensionOf(table: string, geomType: number): Promise<Dimension> {
    const known = dimensionOfType(flatGeometryType(geomType));
    if (known !== undefined) return known;
    const r = await this.row(`SELECT MAX(ST_Dimension(geom)) AS d FROM ${table} WHERE geom IS NOT NULL`);
    // An empty layer of unknown type says nothing: it is taken as polygons (the output stays empty).
    const d = r.d === null || r.d === undefined ? 2 : Number(r.d);
    return d === 0 || d === 1 ? d : 2;
  }
}

/** The dimension an OGR type (without Z/M) promises; undefined for "Unknown" and collections. */
export function dimensionOfType(flat: number): Dimension | undefined {
  if (flat === 1 || flat === 4) return 0;
  if (flat === 2 || flat === 5 || flat === 8 || flat === 9 || flat === 11) return 1;
  if (flat === 3 || flat === 6 || flat === 10 || flat === 12) return 2;
  return undefined;
}

/** Runs `work` with a fresh workspace and always removes it. */
export async function withWorkspace<T>(work: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = await Workspace.create();
  try {
    return await work(ws);
  } finally {
    await ws.dispose();
  }
}

/** `IN (…R-tree…)` pre-filter: ids of `other` whose boxes meet the box of `geomExpr`. */
export function bboxFilter(other: StagedLayer, alias: string, geomExpr: string): string {
  return (
    `${alias}.fid IN (SELECT id FROM ${other.rtree} WHERE minx <= ST_MaxX(${geomExpr}) AND maxx >= ST_MinX(${geomExpr}) ` +
    `AND miny <= ST_MaxY(${geomExpr}) AND maxy >= ST_MinY(${geomExpr}))`
  );
}

/** fid ranges covering a staged layer in about `target` pieces, at least `minSize` features each. */
export function fidChunks(layer: Pick<StagedLayer, 'minFid' | 'maxFid'>, target = 40, minSize = 500): [number, number][] {
  const span = layer.maxFid - layer.minFid + 1;
  if (span <= 0) return [];
  const size = Math.max(minSize, Math.ceil(span / target));
  const chunks: [number, number][] = [];
  for (let lo = layer.minFid; lo <= layer.maxFid; lo += size) chunks.push([lo, Math.min(layer.maxFid, lo + size - 1)]);
  return chunks;
}

/** Opens the named sources, runs `work` and closes them all, whatever happens. */
export async function withVectorInputs<T>(
  sources: Record<string, string>,
  work: (inputs: Record<string, VectorInput>) => Promise<T>,
): Promise<T> {
  const opened: Record<string, VectorInput> = {};
  try {
    for (const [param, source] of Object.entries(sources)) opened[param] = await openVectorInput(source, param);
    return await work(opened);
  } finally {
    for (const input of Object.values(opened)) input.close();
  }
}

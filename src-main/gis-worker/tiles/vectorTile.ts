import { geoJSONToTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { FeatureCollection } from 'geojson';
import type { BBox } from '../../../src-shared/domain/layer.js';
import { VECTOR_TILE_LAYER } from '../../../src-shared/style/vectorTiles.js';
import { transformBBox, wgs84 } from '../crs.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { servedTable, type ServedTable } from '../tables/servedTable.js';
import { MAX_MERCATOR_LAT, mercatorToLonLat, tileBounds } from '../tileMath.js';
import { releaseVsimem, vsimemPath } from '../vsimem.js';
import { inflateTinyPolygons } from './tinyPolygons.js';
import {
  allFeaturesSql,
  COUNT_COLUMN,
  overCapSql,
  sampledFeaturesSql,
  strideFor,
  thinnedFeaturesSql,
  TILE_BUFFER,
  TILE_FEATURE_CAP,
  type TileTable,
} from './tileQuery.js';

export interface VectorTileArgs {
  source: string;
  z: number;
  x: number;
  y: number;
  /** The fields the layer's style reads; they travel in the tile (the feature id always does). */
  fields: string[];
}

export interface VectorTileResult {
  /** Mapbox Vector Tile bytes (an empty array for an empty tile). */
  pbf: Uint8Array;
  /** Features written, and features of the tile left out by thinning. */
  kept: number;
  dropped: number;
}

const EXTENT = 4096;

/**
 * One Mapbox Vector Tile of a vector source, made on demand: SQLite picks the tile's features
 * through the GeoPackage R-tree (thinned past a cap, tileQuery.ts), GDAL reprojects them to
 * EPSG:4326 as GeoJSON, geojson-vt clips and simplifies them for the zoom and vt-pbf encodes
 * them. Each feature's id is its source feature id, so identify and selection name the same
 * feature the attribute table shows.
 */
export async function vectorTile(args: VectorTileArgs, signal?: AbortSignal): Promise<VectorTileResult> {
  const table = await servedTable(args.source, { signal });
  if (!table.geomColumn || !table.rtree) throw new BadInputError(`${args.source} has no geometry to draw`);
  const lonLat = tileLonLat(args.z, args.x, args.y);
  if (!lonLat) return { pbf: new Uint8Array(0), kept: 0, dropped: 0 };
  const box = boxInTable(lonLat, table);
  if (!box) return { pbf: new Uint8Array(0), kept: 0, dropped: 0 };
  const fields = args.fields.filter((f) => table.fields.some((tf) => tf.name === f));
  const t: TileTable = { table: table.table, fidColumn: table.fidColumn, geomColumn: table.geomColumn, rtree: table.rtree };
  const stride = table.extent && table.fidRange ? strideFor({ count: table.count, extentArea: areaOf(table.extent) }, areaOf(box)) : null;

  let sql: string;
  if (stride && table.fidRange) sql = sampledFeaturesSql(t, box, fields, table.fidRange, stride);
  else
    sql =
      (await countIn(table.path, overCapSql(t, box))) > TILE_FEATURE_CAP
        ? thinnedFeaturesSql(t, box, fields)
        : allFeaturesSql(t, box, fields);
  throwIfCancelled(signal);

  const ds = await gdal.openAsync(table.path, 'r');
  const out = vsimemPath('geojson');
  try {
    // -preserve_fid writes each feature's id: the tile's feature ids are the source's.
    const translateArgs = ['-f', 'GeoJSON', '-preserve_fid', '-sql', sql, '-lco', 'COORDINATE_PRECISION=7'];
    if (table.srsWkt) translateArgs.push('-t_srs', 'EPSG:4326');
    (await gdal.vectorTranslateAsync(out, ds, translateArgs)).close();
    throwIfCancelled(signal);
    const text = releaseVsimem(out)?.toString('utf8');
    if (!text) return { pbf: new Uint8Array(0), kept: 0, dropped: 0 };
    const collection = JSON.parse(text) as {
      features: { properties: Record<string, unknown> | null; geometry: { type: string; coordinates: unknown } | null }[];
    };
    let represented = 0;
    for (const f of collection.features) {
      const props = f.properties ?? {};
      represented += Number(props[COUNT_COLUMN] ?? 1);
      delete props[COUNT_COLUMN];
      f.properties = props;
    }
    const kept = collection.features.length;
    inflateTinyPolygons(collection.features, args.z);
    const tile = geoJSONToTile(collection as FeatureCollection, args.z, args.x, args.y, {
      extent: EXTENT,
      buffer: 64,
      clip: true,
      maxZoom: 24,
    });
    if (!tile || tile.features.length === 0) return { pbf: new Uint8Array(0), kept: 0, dropped: represented };
    const pbf = fromGeojsonVt({ [VECTOR_TILE_LAYER]: tile }, { version: 2, extent: EXTENT });
    return { pbf, kept, dropped: represented - kept };
  } finally {
    releaseVsimem(out);
    ds.close();
  }
}

/** Area of a box; a degenerate extent (one point, a vertical line) counts as a tiny one. */
function areaOf(b: BBox): number {
  return Math.max(b[2] - b[0], 1e-9) * Math.max(b[3] - b[1], 1e-9);
}

/**
 * A count on a handle of its own, closed at once: a SQL result set the garbage collector frees
 * while its dataset runs GDAL's translate blocks the event loop (a gdal-async issue).
 */
async function countIn(path: string, sql: string): Promise<number> {
  const ds = await gdal.openAsync(path, 'r');
  try {
    const rows = await ds.executeSQLAsync(sql);
    const v = (await rows.features.firstAsync())?.fields.get('n');
    return Number(v ?? 0);
  } finally {
    ds.close();
  }
}

/** The tile, grown by the buffer, in lon/lat (Web Mercator's latitude limit applies). */
function tileLonLat(z: number, x: number, y: number): BBox | null {
  const b = tileBounds(z, x, y);
  if (!b) return null;
  const pad = (b[2] - b[0]) * TILE_BUFFER;
  const [w, s] = mercatorToLonLat(b[0] - pad, b[1] - pad);
  const [e, n] = mercatorToLonLat(b[2] + pad, b[3] + pad);
  return [Math.max(-180, w), Math.max(-MAX_MERCATOR_LAT, s), Math.min(180, e), Math.min(MAX_MERCATOR_LAT, n)];
}

/** The box in the table's CRS; without a CRS the coordinates are taken as lon/lat. */
function boxInTable(lonLat: BBox, table: ServedTable): BBox | null {
  if (!table.srsWkt) return lonLat;
  return transformBBox(lonLat, wgs84(), gdal.SpatialReference.fromWKT(table.srsWkt), 8);
}

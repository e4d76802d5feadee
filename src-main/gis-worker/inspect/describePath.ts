import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Dataset } from 'gdal-async';
import { crsInfo } from '../crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { geometryTypeName } from '../geometryType.js';
import { layerSrs } from '../layerSrs.js';
import { CSV_OPEN_OPTIONS, rasterTables } from '../openSource.js';
import { rasterGeoref } from '../rasterGeoref.js';
import { guardSource } from '../sourceGuard.js';
import { resolveDelimitedSource } from './tableSource.js';

/** Extensions of files GDAL reads as a dataset of their own (sidecars such as .dbf/.prj are not). */
const GIS_EXTENSIONS = new Set([
  '.shp',
  '.gpkg',
  '.geojson',
  '.json',
  '.fgb',
  '.kml',
  '.kmz',
  '.gpx',
  '.gml',
  '.csv',
  '.tsv',
  '.xlsx',
  '.xls',
  '.ods',
  '.sqlite',
  '.db',
  '.tab',
  '.mif',
  '.dxf',
  '.topojson',
  '.tif',
  '.tiff',
  '.vrt',
  '.img',
  '.asc',
  '.hgt',
  '.jp2',
  '.png',
  '.jpg',
  '.nc',
  '.grd',
  '.dem',
  '.bil',
  '.ecw',
  '.mbtiles',
  '.pmtiles',
  '.zip',
  '.osm',
  '.pbf',
]);
/** Folders that are one dataset (a FileGDB). */
const DATASET_FOLDERS = new Set(['.gdb']);
const MAX_LISTED = 200;
const MAX_DESCRIBED = 40;
const MAX_LAYERS = 50;

export interface SublayerSummary {
  name: string;
  kind: 'vector' | 'table' | 'raster';
  geometry_type: string | null;
  feature_count: number | null;
  crs: string | null;
  fields?: string[];
}

export interface FileSummary {
  path: string;
  size_bytes: number | null;
  driver: string;
  layers: SublayerSummary[];
  raster?: { size_px: [number, number]; band_count: number; data_type: string; crs: string | null };
  notes?: string[];
}

function crsText(srs: Parameters<typeof crsInfo>[0]): string | null {
  const info = crsInfo(srs);
  if (!info) return null;
  return info.epsg ? `EPSG:${info.epsg}` : info.name;
}

const DELIMITED = /\.(csv|tsv)$/i;

/** Opens a file read-only the way openSource would (CSV with its options and cleaning). */
async function openAny(path: string): Promise<{ ds: Dataset; notes: string[] }> {
  guardSource(path);
  if (DELIMITED.test(path)) {
    const table = await resolveDelimitedSource(path);
    return { ds: gdal.drivers.get('CSV').open(table.gdalPath, 'r', CSV_OPEN_OPTIONS), notes: table.notes };
  }
  return { ds: await gdal.openAsync(path, 'r'), notes: [] };
}

/** One file: its driver, its layers (vector, table, GeoPackage raster tables) or its raster. */
export async function describeFile(path: string, options: { withFields: boolean; exactCounts: boolean }): Promise<FileSummary> {
  let size: number | null = null;
  try {
    const st = await stat(path);
    size = st.isDirectory() ? null : st.size;
  } catch {
    if (!path.startsWith('/vsi')) throw new BadInputError(`File not found: ${path}`);
  }
  let opened: { ds: Dataset; notes: string[] };
  try {
    opened = await openAny(path);
  } catch (err) {
    throw new BadInputError(`Not a GIS file GDAL can read: ${path}${reasonSuffix(err, path)}`);
  }
  const { ds } = opened;
  try {
    const layers: SublayerSummary[] = [];
    const count = ds.layers.count();
    for (let i = 0; i < count && i < MAX_LAYERS; i++) {
      const layer = ds.layers.get(i);
      let features: number | null = await layer.features.countAsync(false);
      if (features < 0 || options.exactCounts) features = await layer.features.countAsync(true);
      const table = layer.geomType === gdal.wkbNone;
      const entry: SublayerSummary = {
        name: layer.name,
        kind: table ? 'table' : 'vector',
        geometry_type: table ? null : geometryTypeName(layer.geomType),
        feature_count: features,
        crs: table ? null : crsText(await layerSrs(ds, layer.name)),
      };
      if (options.withFields) {
        const names: string[] = [];
        layer.fields.forEach((f) => {
          names.push(`${f.name} (${f.type})`);
        });
        entry.fields = names;
      }
      layers.push(entry);
    }
    for (const table of rasterTables(ds)) layers.push({ name: table, kind: 'raster', geometry_type: null, feature_count: null, crs: null });
    const summary: FileSummary = { path, size_bytes: size, driver: ds.driver.description, layers };
    if (opened.notes.length) summary.notes = opened.notes;
    const bands = ds.bands.count();
    if (bands > 0) {
      const georef = await rasterGeoref(ds);
      summary.raster = {
        size_px: [georef.width, georef.height],
        band_count: bands,
        data_type: ds.bands.get(1).dataType ?? 'Unknown',
        crs: crsText(georef.srs),
      };
    }
    if (count > MAX_LAYERS) (summary.notes ??= []).push(`${count} layers; the first ${MAX_LAYERS} are listed`);
    return summary;
  } finally {
    ds.close();
  }
}

function reasonSuffix(err: unknown, path: string): string {
  const reason = gdalReason(err, path);
  return !reason || /not recognized as a supported file format/i.test(reason) ? '' : `: ${reason}`;
}

/**
 * A file, or a folder one level deep: the GIS files in it (shapefile sidecars folded into
 * their .shp), subfolders by name, each file described up to a cap.
 */
export async function describePath(path: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  guardSource(path);
  let st;
  try {
    st = await stat(path);
  } catch {
    throw new BadInputError(`Not found: ${path}`);
  }
  if (!st.isDirectory() || DATASET_FOLDERS.has(extname(path).toLowerCase())) {
    return { kind: 'file', ...(await describeFile(path, { withFields: true, exactCounts: true })) };
  }
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (err) {
    throw new BadInputError(`Cannot list ${path}: ${(err as Error).message}`);
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const folders: string[] = [];
  const files: (FileSummary | { path: string; error: string } | { path: string; not_described: true })[] = [];
  let gisCount = 0;
  let other = 0;
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = join(path, entry.name);
    const ext = extname(entry.name).toLowerCase();
    if (entry.isDirectory() && !DATASET_FOLDERS.has(ext)) {
      folders.push(entry.name);
      continue;
    }
    if (!GIS_EXTENSIONS.has(ext) && !DATASET_FOLDERS.has(ext)) {
      other++;
      continue;
    }
    gisCount++;
    if (files.length >= MAX_LISTED) continue;
    throwIfCancelled(signal);
    if (files.length >= MAX_DESCRIBED) {
      files.push({ path: full, not_described: true });
      continue;
    }
    try {
      files.push(await describeFile(full, { withFields: false, exactCounts: false }));
    } catch (err) {
      files.push({ path: full, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return {
    kind: 'folder',
    path,
    gis_files: gisCount,
    listed: files.length,
    truncated: gisCount > files.length,
    files,
    subfolders: folders,
    other_files: other,
  };
}

import { stat } from 'node:fs/promises';
import type { Dataset } from 'gdal-async';
import { MAX_LINEAGE_CHARS, parseStoredLineage, type Lineage, type LineageStore } from '../../../src-shared/domain/lineage.js';
import { parseSource } from '../../../src-shared/domain/source.js';
import { classifySource } from '../../../src-shared/security/sourceClass.js';
import { rows } from '../edit/sqlExec.js';
import { BadInputError, gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';
import { guardSource } from '../sourceGuard.js';
import { readGpkgLineage, writeGpkgLineage } from './gpkgLineage.js';
import { readSidecarLineage, writeSidecarLineage } from './sidecarLineage.js';
import { readTiffLineage, writeTiffLineage } from './tiffLineage.js';

/**
 * Where a file keeps its lineage, decided by the driver GDAL opens it with (not by its
 * extension): GeoPackage and GeoTIFF in the file, everything else in a sidecar. Only local
 * files: a database table or a network source is never written, and has nothing to read.
 */
type Kind = 'gpkg' | 'tiff' | 'other';

async function kindOf(path: string): Promise<Kind> {
  const opened = await openForKind(path);
  opened?.ds.close();
  return opened?.kind ?? 'other';
}

/**
 * The file opened read-only with its kind, or null when it is not a file GDAL opens on its own
 * (a CSV it reads through options, a .dbf…): a sidecar still works for those. The caller closes.
 */
async function openForKind(path: string): Promise<{ ds: Dataset; kind: Kind } | null> {
  const st = await stat(path).catch(() => null);
  if (!st) throw new BadInputError(`${path} does not exist`);
  if (!st.isFile()) return null;
  let ds: Dataset;
  try {
    ds = await gdal.openAsync(path, 'r');
  } catch {
    return null;
  }
  const driver = ds.driver.description;
  return { ds, kind: driver === 'GPKG' ? 'gpkg' : driver === 'GTiff' ? 'tiff' : 'other' };
}

function localPath(path: string): string | null {
  const c = classifySource(path);
  return c.kind === 'local' ? c.path : null;
}

/**
 * The table lineage belongs to in a GeoPackage: the one named, else the file's first vector
 * layer, else its first raster table.
 */
function gpkgTable(ds: Dataset, sublayer: string | null): string {
  if (sublayer) return sublayer;
  if (ds.layers.count() > 0) return ds.layers.get(0).name;
  const raster = rows(
    ds,
    `SELECT table_name FROM gpkg_contents WHERE data_type IN ('tiles', '2d-gridded-coverage') ORDER BY table_name LIMIT 1`,
  );
  if (raster.length) return String(raster[0]!.table_name);
  throw new BadInputError('The GeoPackage holds no table to record lineage for');
}

/** Stores `lineage` in (or beside) the file; a previous Mapwright lineage of the same table is replaced. */
export async function writeLineage(args: {
  path: string;
  sublayer: string | null;
  lineage: Lineage;
  beside?: boolean;
}): Promise<{ stored: LineageStore; location: string }> {
  const path = localPath(args.path);
  if (!path) throw new BadInputError(`Lineage is recorded only in local files, not in ${args.path}`);
  guardSource(path);
  const json = JSON.stringify(args.lineage);
  // What is written must read back: the reader refuses larger records as foreign.
  if (json.length > MAX_LINEAGE_CHARS) throw new BadInputError(`The lineage is ${json.length} characters, more than ${MAX_LINEAGE_CHARS}`);
  const kind = args.beside ? 'other' : await kindOf(path);
  if (kind === 'other') return { stored: 'sidecar', location: await writeSidecarLineage(path, json) };
  let ds: Dataset;
  try {
    ds = await gdal.openAsync(path, 'r+');
  } catch (err) {
    throw new BadInputError(`Cannot open ${path} to record its lineage: ${gdalReason(err, path)}`);
  }
  try {
    if (kind === 'gpkg') {
      const table = gpkgTable(ds, args.sublayer);
      writeGpkgLineage(ds, table, json);
      return { stored: 'gpkg_metadata', location: `${path}|layername=${table}` };
    }
    await writeTiffLineage(ds, json);
    return { stored: 'geotiff_metadata', location: path };
  } finally {
    // Closing flushes: the GTiff driver writes its GDAL_METADATA tag now.
    ds.close();
  }
}

export interface StoredLineage {
  stored: LineageStore | null;
  lineage: Lineage | null;
  unreadable: string | null;
}

const NONE: StoredLineage = { stored: null, lineage: null, unreadable: null };

/** The lineage recorded for a source; a damaged record is `unreadable` with the reason, never an error. */
export async function readLineage(source: string): Promise<StoredLineage> {
  const { path: raw, sublayer } = parseSource(source);
  const path = localPath(raw);
  if (!path) return NONE;
  guardSource(path);
  // One open tells the kind and reads the lineage stored in the file.
  const opened = await openForKind(path);
  const kind = opened?.kind ?? 'other';
  let text: string | null;
  let stored: LineageStore;
  if (kind === 'other') {
    opened?.ds.close();
    stored = 'sidecar';
    text = await readSidecarLineage(path);
  } else {
    stored = kind === 'gpkg' ? 'gpkg_metadata' : 'geotiff_metadata';
    const ds = opened!.ds;
    try {
      text = kind === 'gpkg' ? readGpkgLineage(ds, gpkgTable(ds, sublayer)) : await readTiffLineage(ds);
    } catch (err) {
      return { stored, lineage: null, unreadable: err instanceof Error ? err.message : String(err) };
    } finally {
      ds.close();
    }
  }
  // A file kept byte for byte (a download) has its lineage beside it whatever its format.
  if (text === null && kind !== 'other') {
    text = await readSidecarLineage(path);
    stored = 'sidecar';
  }
  if (text === null) return NONE;
  const parsed = parseStoredLineage(text);
  return parsed.ok ? { stored, lineage: parsed.lineage, unreadable: null } : { stored, lineage: null, unreadable: parsed.reason };
}

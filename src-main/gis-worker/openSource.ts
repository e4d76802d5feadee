import { readFile, stat } from 'node:fs/promises';
import type { Dataset, Layer } from 'gdal-async';
import { parsePgTable, pgQueryOf, pgRasterOf, postgisConnectionOf } from '../../src-shared/domain/pgSource.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { checkServerQuery } from '../../src-shared/sql/checkServerQuery.js';
import { pgOpenString, pgRasterOpenString, pgReadOnlyOptions, pgWriteString, scrubDatabaseSecrets } from './databases.js';
import { BadInputError, gdalReason } from './errors.js';
import { gdal } from './gdal.js';
import { resolveDelimitedSource } from './inspect/tableSource.js';
import { guardSource } from './sourceGuard.js';

export interface OpenedVector {
  kind: 'vector';
  path: string;
  ds: Dataset;
  layer: Layer;
  layerNames: string[];
  /** CSV and friends cannot carry a CRS; callers may assume WGS 84 when values look like degrees. */
  delimitedText: boolean;
}

export interface OpenedRaster {
  kind: 'raster';
  path: string;
  ds: Dataset;
}

export type OpenedSource = OpenedVector | OpenedRaster;

/**
 * The CSV driver only builds point geometries when told which columns hold coordinates;
 * these are the names people actually use. The driver compares them case-insensitively.
 */
export const CSV_OPEN_OPTIONS = [
  'X_POSSIBLE_NAMES=lon,lng,long,longitude,x',
  'Y_POSSIBLE_NAMES=lat,latitude,y',
  // The coordinates are in the geometry; repeating them as text fields only confuses styling.
  'KEEP_GEOM_COLUMNS=NO',
  // Numbers as numbers, so a graduated style can use them…
  'AUTODETECT_TYPE=YES',
  // …but a quoted "01" is a code (FIPS, ISO, postcode): keep it text so joins still match.
  'QUOTED_FIELDS_AS_STRING=YES',
];

const DELIMITED = /\.(csv|tsv)$/i;

/** Opens `path` or `path|layername=NAME`; every failure is a BadInputError a person can act on. */
export async function openSource(source: string): Promise<OpenedSource> {
  const { path, sublayer } = parseSource(guardSource(source));
  if (!path) throw new BadInputError('No file path given');
  const connectionId = postgisConnectionOf(path);
  if (connectionId) return openPostgisTable(connectionId, path, sublayer);
  const size = await checkFile(path);
  const delimitedText = DELIMITED.test(path);

  let ds: Dataset;
  try {
    // gdal-async 3.12's Driver.openAsync ignores its open options (checked: the CSV came back
    // with no geometry and all-text fields), so CSV is opened synchronously; that reads only
    // the header and a sample of rows, a short block of the event loop.
    // A statistics table with a title above its header or notes below is read through a
    // cleaned copy in /vsimem (inspect/tableSource.ts); the file itself is only read.
    const gdalPath = delimitedText ? (await resolveDelimitedSource(path)).gdalPath : path;
    ds = delimitedText ? gdal.drivers.get('CSV').open(gdalPath, 'r', CSV_OPEN_OPTIONS) : await gdal.openAsync(path, 'r');
  } catch (err) {
    throw new BadInputError(openFailure(path, size, err, await jsonSyntaxError(path, size)));
  }

  try {
    return selectLayer(ds, path, sublayer, delimitedText);
  } catch (err) {
    ds.close();
    throw err;
  }
}

function selectLayer(ds: Dataset, path: string, sublayer: string | null, delimitedText: boolean): OpenedSource {
  const layerNames: string[] = [];
  const count = ds.layers.count();
  for (let i = 0; i < count; i++) layerNames.push(ds.layers.get(i).name);

  if (sublayer !== null) {
    const index = layerNames.indexOf(sublayer);
    if (index < 0 && rasterTables(ds).includes(sublayer)) return openRasterTable(ds, path, sublayer);
    if (index < 0) {
      const listing = layerNames.length ? `layers: ${layerNames.join(', ')}` : 'it has no vector layers';
      throw new BadInputError(`No layer named '${sublayer}' in ${path}; ${listing}`);
    }
    return { kind: 'vector', path, ds, layer: ds.layers.get(index), layerNames, delimitedText };
  }
  if (count > 0) return { kind: 'vector', path, ds, layer: ds.layers.get(0), layerNames, delimitedText };
  if (ds.bands.count() > 0) return { kind: 'raster', path, ds };
  // A GeoPackage with several raster tables opens as a list of them: take the first.
  const tables = rasterTables(ds);
  if (tables.length > 0) return openRasterTable(ds, path, tables[0]!);
  throw new BadInputError(`${path} holds neither vector layers nor raster bands`);
}

/**
 * A table or view of a saved PostGIS connection (issue 16) through GDAL's PostgreSQL driver
 * (only that driver: the PostGIS Raster driver also claims `PG:` strings). The layer is
 * looked up as `schema.table`, which GDAL resolves whether or not it listed it.
 */
async function openPostgisTable(connectionId: string, path: string, sublayer: string | null): Promise<OpenedSource> {
  const query = sublayer === null ? null : pgQueryOf(sublayer);
  if (query !== null) return openPostgisQuery(connectionId, path, query);
  const raster = sublayer === null ? null : pgRasterOf(sublayer);
  if (raster !== null) return openPostgisRaster(connectionId, path, raster);
  const table = sublayer === null ? null : parsePgTable(sublayer);
  if (!table) throw new BadInputError(`A PostGIS source names its table: ${path}|layername=<schema>.<table>`);
  const shown = `${path}|layername=${sublayer}`;
  let ds: Dataset;
  try {
    ds = await gdal.openAsync(pgOpenString(connectionId, table), 'r', ['PostgreSQL']);
  } catch (err) {
    throw new BadInputError(`Cannot open ${shown}: ${scrubDatabaseSecrets(gdalReason(err, shown) || 'the server refused the connection')}`);
  }
  let layer: Layer | null = null;
  try {
    layer = ds.layers.get(`${table.schema}.${table.table}`);
  } catch {
    layer = null;
  }
  if (!layer) {
    ds.close();
    throw new BadInputError(`No table or view '${table.schema}.${table.table}' with a geometry column in ${path}`);
  }
  return { kind: 'vector', path: shown, ds, layer, layerNames: [layer.name], delimitedText: false };
}

/**
 * A raster column of a PostGIS table (`postgis://id|layername=raster:schema.table.column`)
 * through GDAL's PostGIS Raster driver alone, the whole table as one raster.
 */
async function openPostgisRaster(connectionId: string, path: string, r: NonNullable<ReturnType<typeof pgRasterOf>>): Promise<OpenedRaster> {
  const shown = `${path}|layername=${r.schema}.${r.table} (${r.column})`;
  try {
    const ds = await gdal.openAsync(pgRasterOpenString(connectionId, r), 'r', ['PostGISRaster']);
    if (ds.bands.count() === 0) {
      ds.close();
      throw new BadInputError(`${shown} holds no raster bands (an empty table?)`);
    }
    return { kind: 'raster', path: shown, ds };
  } catch (err) {
    if (err instanceof BadInputError) throw err;
    throw new BadInputError(`Cannot open ${shown}: ${scrubDatabaseSecrets(gdalReason(err, shown) || 'the server refused the connection')}`);
  }
}

/** How long one statement of a query layer may run on the server (each read runs the query again). */
const QUERY_TIMEOUT_MS = 5 * 60_000;

/**
 * A server query kept as a layer (`postgis://id|layername=sql:…`, pgSource.ts): checked again
 * here (checkServerQuery: one SELECT, no function that reaches files, the network or other
 * sessions), then made the session's temporary view `mapwright_query` — a real layer of the
 * dataset, so every reader (GeoJSON, tiles, analysis, the CRS probe) takes it by name — on a
 * session whose every transaction after that is READ ONLY (pgReadOnlyOptions). Creating the
 * view runs nothing of the query; a function in it that writes fails at the first read.
 */
async function openPostgisQuery(connectionId: string, path: string, query: string): Promise<OpenedVector> {
  const check = checkServerQuery(query);
  if (!check.ok) throw new BadInputError(`The query of this PostGIS layer is refused: ${check.reason}`);
  const shown = `${path}|layername=(query)`;
  let ds: Dataset;
  try {
    // The synchronous open: gdal-async's async one drops open options (a connect, then it returns).
    // Line breaks around the query: a trailing `--` comment ends before the next statement.
    ds = gdal.drivers
      .get('PostgreSQL')
      .open(pgWriteString(connectionId), 'r', pgReadOnlyOptions(QUERY_TIMEOUT_MS, `CREATE TEMP VIEW mapwright_query AS\n${check.sql}\n`));
  } catch (err) {
    throw new BadInputError(
      `Cannot open ${shown}: ${scrubDatabaseSecrets(gdalReason(err, '') || 'the server refused the connection or the query')}`,
    );
  }
  try {
    const temp = await ds.executeSQLAsync('SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()');
    const schema = (await temp.features.firstAsync())?.fields.get('nspname');
    const layer = ds.layers.get(`${String(schema)}.mapwright_query`);
    // One row read now, so a query that fails on the server (or tries to write) fails here, not as
    // an empty layer. GDAL swallows the server's error while fetching: a count with no row is the sign.
    const probe = await ds.executeSQLAsync('SELECT count(*) AS n FROM (SELECT 1 FROM mapwright_query LIMIT 1) AS one_row');
    if (!(await probe.features.firstAsync()))
      throw new BadInputError(
        `The query of ${shown} failed on the server when read (the session is read-only: a function that writes fails). ` +
          'Run it with inspect_sql on the same connection for the server message.',
      );
    return { kind: 'vector', path: shown, ds, layer, layerNames: [layer.name], delimitedText: false };
  } catch (err) {
    ds.close();
    if (err instanceof BadInputError) throw err;
    throw new BadInputError(`The query of ${shown} failed on the server: ${scrubDatabaseSecrets(gdalReason(err, '') || 'it failed')}`);
  }
}

/** Raster tables of a GeoPackage (its subdatasets `GPKG:path:table`), by table name. */
export function rasterTables(ds: Dataset): string[] {
  if (ds.driver.description !== 'GPKG') return [];
  const meta = (ds.getMetadata('SUBDATASETS') ?? {}) as Record<string, string>;
  return Object.entries(meta)
    .filter(([k]) => /^SUBDATASET_\d+_NAME$/.test(k))
    .map(([, v]) => v.slice(v.lastIndexOf(':') + 1));
}

/** Opens one raster table and closes the container (left open for the caller when this fails). */
function openRasterTable(ds: Dataset, path: string, table: string): OpenedRaster {
  let raster: Dataset;
  try {
    raster = gdal.open(`GPKG:${path}:${table}`, 'r');
  } catch (err) {
    throw new BadInputError(`Cannot open the raster table '${table}' of ${path}: ${gdalReason(err, path)}`);
  }
  ds.close();
  return { kind: 'raster', path, ds: raster };
}

/** Checks the things GDAL reports badly (a missing file reads as "not a supported format"). */
async function checkFile(path: string): Promise<number | 'folder' | null> {
  // GDAL virtual paths (/vsizip/…, /vsicurl/…) are not on the file system; GDAL judges them.
  if (path.startsWith('/vsi')) return null;
  try {
    const st = await stat(path);
    // A folder can be a dataset (a directory of shapefiles, a FileGDB): let GDAL try.
    if (st.isDirectory()) return 'folder';
    if (st.size === 0) throw new BadInputError(`Not a GIS file GDAL can read: ${path} (0 bytes)`);
    return st.size;
  } catch (err) {
    if (err instanceof BadInputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new BadInputError(`File not found: ${path}`);
    if (code === 'EACCES' || code === 'EPERM') throw new BadInputError(`Cannot read ${path}: permission denied`);
    throw new BadInputError(`Cannot read ${path}: ${(err as Error).message}`);
  }
}

function openFailure(path: string, size: number | 'folder' | null, err: unknown, jsonError: string | null): string {
  const what = size === null ? '' : size === 'folder' ? ' (a folder)' : ` (${size.toLocaleString('en-US')} bytes)`;
  if (jsonError) return `Not a GIS file GDAL can read: ${path}${what}: invalid JSON, ${jsonError}`;
  const reason = gdalReason(err, path);
  // GDAL's generic refusal adds nothing to ours; a specific one (a JSON syntax error) does.
  const generic = !reason || /not recognized as a supported file format/i.test(reason);
  return `Not a GIS file GDAL can read: ${path}${what}${generic ? '' : `: ${reason}`}`;
}

const JSON_FILE = /\.(geo)?json$/i;
const JSON_CHECK_LIMIT = 64 * 1024 * 1024;

/**
 * GDAL only says "Failed to read GeoJSON data"; a person fixing the file by hand needs to
 * know where the syntax breaks. Only run after GDAL has refused the file.
 */
async function jsonSyntaxError(path: string, size: number | 'folder' | null): Promise<string | null> {
  if (!JSON_FILE.test(path) || typeof size !== 'number' || size > JSON_CHECK_LIMIT) return null;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
    JSON.parse(text);
    return null;
  } catch (err) {
    if (!(err instanceof SyntaxError)) return null;
    const at = /position (\d+)/.exec(err.message);
    if (!at) return err.message;
    const before = text!.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return `${err.message} (line ${line}, column ${column})`;
  }
}

import { existsSync } from 'node:fs';
import type { CallResult } from '../../../src-shared/worker/workerCalls.js';
import type { Dataset } from 'gdal-async';
import { formatSource, parseSource } from '../../../src-shared/domain/source.js';
import { checkQuery, gdalDatasourceProblem } from '../../../src-shared/sql/checkQuery.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { CSV_OPEN_OPTIONS, openSource } from '../openSource.js';
import type { ProgressFn } from '../progressThrottle.js';
import { releaseVsimem, vsimemPath } from '../vsimem.js';
import { featureProperties, readCapped, roundCoordinates } from './fieldValues.js';
import { resolveDelimitedSource } from './tableSource.js';

export interface SqlTable {
  /** The name the query uses: the project layer's name. */
  name: string;
  /** `path` or `path|layername=NAME`. */
  source: string;
}

export interface SqlArgs {
  sql: string;
  tables: SqlTable[];
  limit: number;
  include_geometry: boolean;
  max_chars: number;
}

const DELIMITED = /\.(csv|tsv)$/i;

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

interface ExposedTable {
  name: string;
  columns: string[];
  geometry_column: string | null;
}

/**
 * An OGR VRT naming every vector layer and table of the project by its layer name, so one
 * SQLite-dialect query can join them. The VRT only references the sources; GDAL opens them
 * read-only (VRT sources are never opened for update unless the VRT asks, and it does not).
 */
async function buildVrt(tables: SqlTable[]): Promise<{ vrt: string; exposed: ExposedTable[]; skipped: string[] }> {
  const parts: string[] = [];
  const exposed: ExposedTable[] = [];
  const skipped: string[] = [];
  for (const t of tables) {
    const { path, sublayer } = parseSource(t.source);
    let opened;
    try {
      opened = await openSource(t.source);
    } catch (err) {
      skipped.push(`${t.name} (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    try {
      if (opened.kind !== 'vector') {
        skipped.push(`${t.name} (a raster)`);
        continue;
      }
      const columns: string[] = [];
      opened.layer.fields.forEach((f) => {
        columns.push(f.name);
      });
      const geometryColumn = opened.layer.geomType === gdal.wkbNone ? null : opened.layer.geomColumn || 'GEOMETRY';
      exposed.push({ name: t.name, columns, geometry_column: geometryColumn });
      let src = path;
      let options = '';
      if (DELIMITED.test(path)) {
        src = (await resolveDelimitedSource(path)).gdalPath;
        options = `<OpenOptions>${CSV_OPEN_OPTIONS.map((o) => {
          const [k, ...v] = o.split('=');
          return `<OOI key="${xml(k!)}">${xml(v.join('='))}</OOI>`;
        }).join('')}</OpenOptions>`;
      }
      parts.push(
        `<OGRVRTLayer name="${xml(t.name)}"><SrcDataSource relativeToVRT="0">${xml(src)}</SrcDataSource>${options}` +
          `<SrcLayer>${xml(sublayer ?? opened.layer.name)}</SrcLayer></OGRVRTLayer>`,
      );
    } finally {
      opened.ds.close();
    }
  }
  return { vrt: `<OGRVRTDataSource>${parts.join('')}</OGRVRTDataSource>`, exposed, skipped };
}

async function withVrt<T>(tables: SqlTable[], fn: (ds: Dataset, exposed: ExposedTable[], skipped: string[]) => Promise<T>): Promise<T> {
  const names = new Set<string>();
  for (const t of tables) {
    if (names.has(t.name))
      throw new BadInputError(`Two layers are named '${t.name}'; rename one (layers_rename) so the query can tell them apart`);
    names.add(t.name);
  }
  const { vrt, exposed, skipped } = await buildVrt(tables);
  if (exposed.length === 0)
    throw new BadInputError(`No vector layer or table to query${skipped.length ? `; skipped: ${skipped.join('; ')}` : ''}`);
  const path = vsimemPath('vrt');
  gdal.vsimem.set(Buffer.from(vrt, 'utf8'), path);
  let ds: Dataset | null = null;
  try {
    ds = await gdal.openAsync(path, 'r');
    return await fn(ds, exposed, skipped);
  } finally {
    ds?.close();
    releaseVsimem(path);
  }
}

/**
 * The same capability check as the tool's `prepare` (src-shared/sql/checkQuery.ts), again here
 * because the worker trusts no caller: one SELECT over these tables, allowed functions only,
 * nothing GDAL's SQLite dialect would open as another datasource. Runs before GDAL sees the text.
 */
function guard(sql: string, tables: SqlTable[]): string {
  const check = checkQuery(sql, { tables: tables.map((t) => t.name) });
  if (!check.ok) throw new BadInputError(check.reason);
  return check.sql;
}

function sqlFailure(err: unknown, exposed: ExposedTable[]): BadInputError {
  const reason = gdalReason(err)
    .replace(/^In ExecuteSQL\(\):\s*/, '')
    .replace(/\s+/g, ' ');
  const listing = exposed
    .map((t) => `"${t.name}" (${[...(t.geometry_column ? [`${t.geometry_column} [geometry]`] : []), ...t.columns].join(', ')})`)
    .join('; ');
  return new BadInputError(`The query failed: ${reason}. Tables: ${listing}`);
}

/** Runs one SELECT over the project's layers (SQLite dialect with SpatiaLite functions). */
export async function runSql(args: SqlArgs, signal: AbortSignal): Promise<CallResult<'inspect.sql'>> {
  const sql = guard(args.sql, args.tables);
  return withVrt(args.tables, async (ds, exposed, skipped) => {
    let result;
    try {
      result = await ds.executeSQLAsync(sql, undefined, 'SQLite');
    } catch (err) {
      throw sqlFailure(err, exposed);
    }
    const columns: string[] = [];
    result.fields.forEach((f) => {
      columns.push(f.name);
    });
    const hasGeometry = result.geomType !== gdal.wkbNone;
    const { items: rows, truncatedBy } = await readCapped(
      result.features,
      (f) => {
        const row: Record<string, unknown> = featureProperties(f, null);
        if (hasGeometry && args.include_geometry) {
          const g = f.getGeometry();
          row.geometry = g ? roundCoordinates(JSON.parse(g.toJSON()), 6) : null;
        }
        return row;
      },
      { limit: args.limit, maxChars: args.max_chars },
      signal,
    );
    let total = rows.length;
    if (truncatedBy) total = await countRows(ds, sql, exposed);
    return {
      columns,
      rows,
      returned: rows.length,
      total_rows: total,
      truncated: truncatedBy !== null,
      truncated_by: truncatedBy,
      geometry: hasGeometry
        ? args.include_geometry
          ? 'included as GeoJSON in the source layer CRS'
          : 'omitted (include_geometry: true to see it)'
        : 'none',
      ...(skipped.length ? { skipped_layers: skipped } : {}),
    };
  });
}

async function countRows(ds: Dataset, sql: string, exposed: ExposedTable[]): Promise<number> {
  const wrapped = `SELECT COUNT(*) AS n FROM (${sql})`;
  const problem = gdalDatasourceProblem(wrapped);
  if (problem) throw new BadInputError(problem);
  let counted;
  try {
    counted = await ds.executeSQLAsync(wrapped, undefined, 'SQLite');
  } catch (err) {
    throw sqlFailure(err, exposed);
  }
  const f = await counted.features.firstAsync();
  return Number(f?.fields.get('n') ?? 0);
}

/**
 * Writes a SELECT's result as a new GeoPackage layer (GDAL's ogr2ogr with `-sql`): the twin of
 * runSql that keeps what it finds. `output` is `path|layername=NAME` in the outputs folder.
 */
export async function saveSql(
  args: { sql: string; tables: SqlTable[]; output: string },
  signal: AbortSignal,
  progress: ProgressFn,
): Promise<{ output: string; featureCount: number; notes: string[] }> {
  const sql = guard(args.sql, args.tables);
  const { path, sublayer } = parseSource(args.output);
  if (!sublayer) throw new BadInputError(`The output must be 'path|layername=NAME'; got ${args.output}`);
  if (existsSync(path)) throw new BadInputError(`${path} already exists; outputs are never written over`);
  return withVrt(args.tables, async (ds, exposed, skipped) => {
    throwIfCancelled(signal);
    let out: Dataset;
    try {
      out = await gdal.vectorTranslateAsync(path, ds, ['-f', 'GPKG', '-dialect', 'SQLite', '-sql', sql, '-nln', sublayer], {
        progress_cb: (f: number) => progress(Math.min(1, Math.max(0, f)), 'Writing the query result'),
      });
    } catch (err) {
      throw sqlFailure(err, exposed);
    }
    try {
      const layer = out.layers.get(sublayer);
      const featureCount = layer ? await layer.features.countAsync(true) : 0;
      const notes = skipped.length ? [`not available to the query: ${skipped.join('; ')}`] : [];
      return { output: formatSource({ path, sublayer }), featureCount, notes };
    } finally {
      out.close();
    }
  });
}

import { existsSync } from 'node:fs';
import type { Dataset } from 'gdal-async';
import { formatSource, parseSource } from '../../src-shared/domain/source.js';
import { checkServerQuery } from '../../src-shared/sql/checkServerQuery.js';
import type { CallArgs } from '../../src-shared/worker/workerCalls.js';
import { pgReadOnlyOptions, pgWriteString, scrubDatabaseSecrets } from './databases.js';
import { BadInputError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import type { FunctionContext } from './functions/types.js';

/** How long the server may take over the query whose result is kept (it may be a large one). */
const STATEMENT_TIMEOUT_MS = 10 * 60_000;

/**
 * `postgis.save_query` (issue 16): the whole result of one server query (PostgreSQL dialect,
 * checked again here by checkServerQuery) written as a new GeoPackage layer in the outputs
 * folder — a copy the project keeps, whatever happens to the server later. Every transaction of
 * the session is READ ONLY with a statement time-out (pgReadOnlyOptions), so a query that
 * slipped past the check still cannot write.
 */
export async function savePostgisQuery(
  args: CallArgs<'postgis.save_query'>,
  ctx: Pick<FunctionContext, 'signal' | 'progress'>,
): Promise<{ output: string; featureCount: number; notes: string[] }> {
  const check = checkServerQuery(args.sql);
  if (!check.ok) throw new BadInputError(check.reason);
  const { path, sublayer } = parseSource(args.output);
  if (!sublayer) throw new BadInputError(`The output must be 'path|layername=NAME'; got ${args.output}`);
  if (existsSync(path)) throw new BadInputError(`${path} already exists; outputs are never written over`);

  let server: Dataset;
  try {
    // gdal-async's async open drops open options: the synchronous open takes them (a connect, then returns).
    server = gdal.drivers.get('PostgreSQL').open(pgWriteString(args.connectionId), 'r', pgReadOnlyOptions(STATEMENT_TIMEOUT_MS));
  } catch (err) {
    throw new BadInputError(
      `Cannot connect to the PostGIS connection '${args.connectionId}': ${scrubDatabaseSecrets(gdalReason(err, '') || 'refused')}`,
    );
  }
  try {
    throwIfCancelled(ctx.signal);
    let out: Dataset;
    try {
      out = await gdal.vectorTranslateAsync(path, server, ['-f', 'GPKG', '-sql', check.sql, '-nln', sublayer], {
        progress_cb: (f: number) => ctx.progress(Math.min(1, Math.max(0, f)), 'Writing the query result'),
      });
    } catch (err) {
      throw new BadInputError(`The server query could not be saved: ${scrubDatabaseSecrets(gdalReason(err, '') || 'it failed')}`);
    }
    try {
      const layer = out.layers.get(sublayer);
      const featureCount = layer ? await layer.features.countAsync(true) : 0;
      return { output: formatSource({ path, sublayer }), featureCount, notes: [] };
    } finally {
      out.close();
    }
  } finally {
    server.close();
  }
}

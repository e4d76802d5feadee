import type { GdalHandle, PostgisHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { PgClientOptions } from './pgClient.js';
import type { PgConnectionStore } from './pgConnectionStore.js';
import { PgQueryError, runReadOnlyQuery } from './pgReadOnlyQuery.js';
import { browsePg } from './pgBrowse.js';
import { pgOrigin } from './pgOrigin.js';
import { runPushdownToLocal } from './pgPushdownLocal.js';
import { planPushdown, runPushdownCall } from './pgPushdownRun.js';
import { PushdownError } from './pushdown/index.js';
import { pgRasterSublayer, pgTableSublayer, postgisSource } from '../../src-shared/domain/pgSource.js';
import { formatSource } from '../../src-shared/domain/source.js';

type Connections = Pick<PgConnectionStore, 'get' | 'password' | 'list'>;

/**
 * The `postgis` handle: a saved connection, named by id, runs one checked read-only query
 * (pgReadOnlyQuery.ts). `connections` is asked at each call (late-bound: the store lives in
 * the app settings, opened after the tool host). Failures become tool errors the model reads.
 * `gdal` writes push-down results that come back as local layers.
 */
export function createPostgisHandle(
  connections: () => Connections | null,
  deps: { client?: PgClientOptions; gdal?: GdalHandle } = {},
): PostgisHandle {
  const { client, gdal } = deps;
  const unknown = (connectionId: string) =>
    new ToolFailure(
      'invalid_params',
      `There is no saved PostGIS connection '${connectionId}'.`,
      false,
      'The person adds connections in the PostGIS panel; name one by the id it shows.',
    );
  return {
    pushdownPlan(connectionId, algorithm) {
      const store = connections();
      return store ? planPushdown(store, connectionId, algorithm) : { ok: false, reason: 'no PostGIS connections are saved' };
    },
    async pushdown(call, { signal, progress }) {
      const store = connections();
      if (!store) throw unknown(call.connectionId);
      try {
        const { localOutput } = call;
        if (localOutput === undefined) {
          const r = await runPushdownCall(store, call, { signal, onProgress: progress });
          return { ...r.output, featureCount: r.featureCount, notes: r.notes };
        }
        if (!gdal) throw new ToolFailure('handler_error', 'The GIS worker is not available to write the result.', false);
        const r = await runPushdownToLocal(
          store,
          call,
          (staged, o) =>
            gdal.call(
              'postgis.write_staged',
              { ...staged, output: localOutput },
              { signal, ...(o.onProgress ? { progress: o.onProgress } : {}) },
            ),
          { signal, onProgress: progress },
        );
        return { output: r.written.output, info: r.written.info, featureCount: r.featureCount, notes: r.notes };
      } catch (err) {
        if (!(err instanceof PushdownError)) throw err;
        const code = err.code === 'cancelled' ? 'cancelled' : err.code === 'invalid_params' ? 'invalid_params' : 'handler_error';
        throw new ToolFailure(code, err.message, false);
      }
    },
    async tables(connectionId) {
      const store = connections();
      const list = store?.list() ?? [];
      const answer = {
        connections: list.map((c) => ({ id: c.id, name: c.name, server: pgOrigin(c), results_schema: c.outputSchema })),
      };
      if (connectionId === null) return answer;
      const spec = store?.get(connectionId) ?? null;
      if (!store || !spec) throw unknown(connectionId);
      const browsed = await browsePg(spec, store.password(connectionId));
      if (!browsed.ok) throw new ToolFailure('handler_error', browsed.reason, browsed.code === 'unreachable' || browsed.code === 'timeout');
      const tables = browsed.schemas.flatMap((schema) =>
        schema.tables.flatMap((t) =>
          t.columns.map((c) => ({
            table: `${schema.name}.${t.name}`,
            source: formatSource({
              path: postgisSource(connectionId),
              sublayer:
                c.kind === 'raster'
                  ? pgRasterSublayer({ schema: schema.name, table: t.name, column: c.name })
                  : pgTableSublayer({ schema: schema.name, table: t.name }),
            }),
            geometry:
              `${c.name} ${c.kind === 'raster' ? 'raster' : c.kind === 'geography' ? 'geography ' : ''}${c.geometryType ?? ''}`.trim(),
            srid: c.srid || null,
            rows: t.rows,
            view: t.kind === 'view',
          })),
        ),
      );
      return { ...answer, tables };
    },
    async query(connectionId, sql, opts) {
      const store = connections();
      const spec = store?.get(connectionId) ?? null;
      if (!store || !spec)
        throw new ToolFailure(
          'invalid_params',
          `There is no saved PostGIS connection '${connectionId}'.`,
          false,
          'The person adds connections in the PostGIS panel; name one by the id it shows.',
        );
      try {
        return await runReadOnlyQuery(spec, store.password(connectionId), sql, { ...opts, ...(client ? { client } : {}) });
      } catch (err) {
        throw toolFailureOf(err);
      }
    },
  };
}

function toolFailureOf(err: unknown): ToolFailure {
  if (!(err instanceof PgQueryError)) return new ToolFailure('handler_error', err instanceof Error ? err.message : String(err), false);
  switch (err.kind) {
    case 'refused':
      return new ToolFailure(
        'invalid_params',
        err.message,
        false,
        'Write one SELECT (PostgreSQL/PostGIS dialect) without functions that reach files, the network, settings or other sessions.',
      );
    case 'timeout':
      return new ToolFailure('timeout', err.message, false, err.hint);
    case 'cancelled':
      return new ToolFailure('cancelled', err.message, false);
    case 'connection':
      return new ToolFailure('handler_error', err.message, true);
    default:
      return new ToolFailure('handler_error', err.message, false, err.hint);
  }
}

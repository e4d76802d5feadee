import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PgBrowseResult, PgSpatialTable } from '../../src-shared/domain/pgConnection.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { columnLabel, isRasterOnly, rowsLabel, tableKindLabel } from './postgisFormat.js';
import { messageOf } from './usePostgisConnections.js';

type Schemas = Extract<PgBrowseResult, { ok: true }>['schemas'];
type LoadState = { state: 'loading' } | { state: 'loaded' } | { state: 'failed'; message: string };

/**
 * A connection's spatial tables and views, grouped by schema, each with Load. Load is the
 * person's choice from the list, so main runs `layers.load` for them without a dialog
 * (`postgis/load`); the layer appears in the layer panel by the usual `layers/changed` event.
 * The panel stays open so several tables can be loaded in a row.
 */
export function PostgisTableList({
  connectionId,
  connectionName,
  schemas,
}: {
  connectionId: string;
  connectionName: string;
  schemas: Schemas;
}) {
  const { t } = useTranslation('postgis');
  const bridge = useBridge();
  const [loads, setLoads] = useState<Record<string, LoadState>>({});
  const withTables = schemas.filter((s) => s.tables.length > 0);

  async function load(schema: string, table: PgSpatialTable) {
    const key = `${schema}.${table.name}`;
    const settle = (state: LoadState) => setLoads((l) => ({ ...l, [key]: state }));
    settle({ state: 'loading' });
    // A table with only raster columns loads its first one as a raster layer.
    const raster = isRasterOnly(table) ? table.columns[0]!.name : undefined;
    try {
      const result = await bridge.call('postgis/load', { id: connectionId, schema, table: table.name, ...(raster ? { raster } : {}) });
      if (result.ok) settle({ state: 'loaded' });
      else settle({ state: 'failed', message: result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message });
    } catch (e) {
      settle({ state: 'failed', message: messageOf(e) });
    }
  }

  return (
    <div className="postgis-tables" data-testid="postgis-table-list" aria-label={t('tablesOf', { name: connectionName })}>
      {withTables.length === 0 && <p className="postgis-tables__empty">{t('noTables')}</p>}
      {withTables.map((schema) => (
        <section key={schema.name} className="postgis-tables__schema" data-testid="postgis-schema" data-schema={schema.name}>
          <h4>{schema.name}</h4>
          <ul>
            {schema.tables.map((table) => (
              <PostgisTableRow
                key={table.name}
                schema={schema.name}
                table={table}
                load={loads[`${schema.name}.${table.name}`]}
                onLoad={() => void load(schema.name, table)}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function PostgisTableRow({ schema, table, load, onLoad }: { schema: string; table: PgSpatialTable; load?: LoadState; onLoad(): void }) {
  const { t } = useTranslation('postgis');
  const loading = load?.state === 'loading';
  const facts = [tableKindLabel(table.kind), rowsLabel(table)].filter((f): f is string => f !== null);
  return (
    <li
      className="postgis-table"
      data-testid="postgis-table-item"
      data-schema={schema}
      data-table={table.name}
      data-kind={table.kind}
      data-rows={table.rows ?? undefined}
    >
      <div className="postgis-table__head">
        <span className="postgis-table__name" title={`${schema}.${table.name}`}>
          {schema}.{table.name}
        </span>
        <span className="postgis-table__facts" data-testid="postgis-table-rows">
          {facts.join(' · ')}
        </span>
        <button
          type="button"
          className="btn btn--small btn--primary"
          data-testid="postgis-load"
          disabled={loading}
          aria-busy={loading}
          onClick={onLoad}
        >
          {loading && <span className="postgis-spinner" aria-hidden="true" />}
          {loading ? t('loadingTable') : t('load')}
        </button>
      </div>
      <ul className="postgis-table__columns">
        {table.columns.map((column) => (
          <li key={column.name} data-testid="postgis-column" data-column={column.name} data-srid={column.srid} data-kind={column.kind}>
            {columnLabel(column)}
          </li>
        ))}
      </ul>
      {load?.state === 'loaded' && (
        <div className="postgis-table__loaded" role="status" data-testid="postgis-loaded">
          {t('loaded')}
        </div>
      )}
      {load?.state === 'failed' && (
        <div className="layer-item__error" role="alert" data-testid="postgis-error">
          {load.message}
        </div>
      )}
    </li>
  );
}

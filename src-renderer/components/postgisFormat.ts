import type {
  PgConnectionDraft,
  PgConnectionListed,
  PgSpatialColumn,
  PgSpatialTable,
  PgSslMode,
  PgTestReport,
} from '../../src-shared/domain/pgConnection.js';
import { i18n } from '../i18n/i18n.js';

/** The panel's words and the form's model, pure so they are tested without React (postgisFormat.test.ts). */

export const SSL_MODES: readonly PgSslMode[] = ['disable', 'prefer', 'require', 'verify-full'];

/** What the form holds: text as typed. Main checks the draft (zod) and answers what is wrong. */
export interface PgConnectionForm {
  name: string;
  host: string;
  port: string;
  database: string;
  user: string;
  password: string;
  /** Editing only: send `password: null` so main forgets the stored one. */
  removePassword: boolean;
  sslmode: PgSslMode;
  outputSchema: string;
}

export const EMPTY_PG_FORM: PgConnectionForm = {
  name: '',
  host: '',
  port: '5432',
  database: '',
  user: '',
  password: '',
  removePassword: false,
  sslmode: 'prefer',
  outputSchema: '',
};

export function formOf(connection: PgConnectionListed): PgConnectionForm {
  return {
    name: connection.name,
    host: connection.host,
    port: String(connection.port),
    database: connection.database,
    user: connection.user,
    password: '',
    removePassword: false,
    sslmode: connection.sslmode,
    outputSchema: connection.outputSchema ?? '',
  };
}

/**
 * The `postgis/save-connection` params. `password`: typed text stores it; the remove box sends
 * null; neither leaves it out, which keeps the stored one (a new connection then has none).
 * A port that is not a number goes as NaN (null on the wire), so main names the field.
 */
export function saveParamsOf(form: PgConnectionForm, id?: string): { connection: PgConnectionDraft; password?: string | null } {
  const portText = form.port.trim();
  const port = portText === '' ? 5432 : Number(portText);
  const connection: PgConnectionDraft = {
    ...(id ? { id } : {}),
    name: form.name.trim(),
    host: form.host.trim(),
    port,
    database: form.database,
    user: form.user,
    sslmode: form.sslmode,
    outputSchema: form.outputSchema.trim() || null,
  };
  if (form.removePassword) return { connection, password: null };
  return form.password ? { connection, password: form.password } : { connection };
}

/** `user@host:port/database`, as libpq URIs write it (an IPv6 host in brackets). */
export function connectionAddress(c: Pick<PgConnectionListed, 'user' | 'host' | 'port' | 'database'>): string {
  const host = c.host.includes(':') && !c.host.startsWith('[') ? `[${c.host}]` : c.host;
  return `${c.user}@${host}:${c.port}/${c.database}`;
}

/** The test's one line: versions, or why it failed. */
export function testReportLabel(report: PgTestReport): string {
  if (report.ok) return i18n.t(report.ssl ? 'postgis:testOkTls' : 'postgis:testOk', { server: report.server, postgis: report.postgis });
  return i18n.t('postgis:testFailed', { reason: report.reason });
}

/** "≈ 1,000,000 rows", "100 rows", or for a view (never counted) nothing: its kind says it. */
export function rowsLabel(table: Pick<PgSpatialTable, 'rows' | 'rowsExact' | 'kind'>): string | null {
  if (table.rows === null) return table.kind === 'table' || table.kind === 'partitioned_table' ? i18n.t('postgis:rowsUnknown') : null;
  const formatted = table.rows.toLocaleString('en');
  return i18n.t(table.rowsExact ? 'postgis:rowsExact' : 'postgis:rowsApprox', { count: table.rows, formatted });
}

/** "view", "materialized view"…; null for a plain table. */
export function tableKindLabel(kind: PgSpatialTable['kind']): string | null {
  return kind === 'table' ? null : i18n.t(`postgis:kind_${kind}`);
}

/** "geom MULTIPOLYGON · SRID 4267", "geog Point (geography) · SRID 4326", "rast raster". */
export function columnLabel(column: PgSpatialColumn): string {
  if (column.kind === 'raster') return `${column.name} ${i18n.t('postgis:raster')}`;
  const type =
    column.geometryType && column.geometryType.toUpperCase() !== 'GEOMETRY' ? column.geometryType : i18n.t('postgis:anyGeometry');
  const kind = column.kind === 'geography' ? ` (${i18n.t('postgis:geography')})` : '';
  const srid = column.srid ? i18n.t('postgis:srid', { srid: column.srid }) : i18n.t('postgis:sridNone');
  return `${column.name} ${type}${kind} · ${srid}`;
}

/** Only raster columns: Load takes the first one as a raster layer (GDAL's PostGIS Raster driver). */
export function isRasterOnly(table: Pick<PgSpatialTable, 'columns'>): boolean {
  return table.columns.length > 0 && table.columns.every((c) => c.kind === 'raster');
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PgConnectionListed, PgSpatialColumn } from '../../src-shared/domain/pgConnection.js';
import {
  columnLabel,
  connectionAddress,
  EMPTY_PG_FORM,
  formOf,
  isRasterOnly,
  rowsLabel,
  saveParamsOf,
  tableKindLabel,
  testReportLabel,
} from './postgisFormat.js';

const listed: PgConnectionListed = {
  id: 'office',
  name: 'Office',
  host: 'db.example.org',
  port: 5433,
  database: 'gis',
  user: 'ana',
  sslmode: 'require',
  outputSchema: null,
  hasPassword: true,
};
const column = (over: Partial<PgSpatialColumn>): PgSpatialColumn => ({
  name: 'geom',
  kind: 'geometry',
  geometryType: 'POINT',
  srid: 4326,
  dims: 2,
  ...over,
});

describe('PostGIS panel formatting', () => {
  it('writes a connection as user@host:port/database, an IPv6 host in brackets', () => {
    assert.equal(connectionAddress(listed), 'ana@db.example.org:5433/gis');
    assert.equal(connectionAddress({ ...listed, host: '::1' }), 'ana@[::1]:5433/gis');
  });

  it('sends the password only when typed, null when the person removes it, and keeps it otherwise', () => {
    const form = { ...formOf(listed) };
    assert.deepEqual(saveParamsOf(form, 'office'), {
      connection: {
        id: 'office',
        name: 'Office',
        host: 'db.example.org',
        port: 5433,
        database: 'gis',
        user: 'ana',
        sslmode: 'require',
        outputSchema: null,
      },
    });
    assert.equal(saveParamsOf({ ...form, password: 's3cret' }, 'office').password, 's3cret');
    assert.equal(saveParamsOf({ ...form, removePassword: true }, 'office').password, null);
    assert.equal('password' in saveParamsOf({ ...EMPTY_PG_FORM, name: 'x' }), false);
    assert.equal('id' in saveParamsOf(EMPTY_PG_FORM).connection, false, 'a new connection has no id: main makes one');
  });

  it('trims the host and name, defaults an empty port, and sends an empty output schema as null', () => {
    const { connection } = saveParamsOf({ ...EMPTY_PG_FORM, name: ' Lab ', host: ' 127.0.0.1 ', port: '', outputSchema: '  ' });
    assert.deepEqual([connection.name, connection.host, connection.port, connection.outputSchema], ['Lab', '127.0.0.1', 5432, null]);
    assert.equal(saveParamsOf({ ...EMPTY_PG_FORM, outputSchema: 'results' }).connection.outputSchema, 'results');
    assert.ok(Number.isNaN(saveParamsOf({ ...EMPTY_PG_FORM, port: 'abc' }).connection.port), 'left for main to refuse by name');
  });

  it('states a test: versions, or why it failed', () => {
    assert.equal(testReportLabel({ ok: true, server: '15.14', postgis: '3.3.2', ssl: false }), 'PostgreSQL 15.14 · PostGIS 3.3.2');
    assert.match(testReportLabel({ ok: true, server: '16.2', postgis: '3.4.2', ssl: true }), /TLS/);
    assert.equal(
      testReportLabel({ ok: false, code: 'auth_failed', reason: 'The server refused the user name or password.' }),
      'Failed: The server refused the user name or password.',
    );
  });

  it('counts rows: approximate with ≈, exact, unknown for a table, nothing for a view', () => {
    assert.equal(rowsLabel({ rows: 1_000_000, rowsExact: false, kind: 'table' }), '≈ 1,000,000 rows');
    assert.equal(rowsLabel({ rows: 100, rowsExact: true, kind: 'table' }), '100 rows');
    assert.equal(rowsLabel({ rows: 1, rowsExact: true, kind: 'table' }), '1 row');
    assert.equal(rowsLabel({ rows: null, rowsExact: false, kind: 'table' }), 'rows unknown');
    assert.equal(rowsLabel({ rows: null, rowsExact: false, kind: 'view' }), null);
    assert.equal(tableKindLabel('view'), 'view');
    assert.equal(tableKindLabel('table'), null);
  });

  it('describes a column by name, type and SRID; rasters alone cannot be loaded', () => {
    assert.equal(columnLabel(column({ geometryType: 'MULTIPOLYGON', srid: 4267 })), 'geom MULTIPOLYGON · SRID 4267');
    assert.equal(columnLabel(column({ name: 'geog', kind: 'geography', geometryType: 'Point' })), 'geog Point (geography) · SRID 4326');
    assert.equal(columnLabel(column({ geometryType: 'GEOMETRY', srid: 0 })), 'geom any geometry · no SRID');
    assert.equal(columnLabel(column({ name: 'rast', kind: 'raster', geometryType: null, srid: 0 })), 'rast raster');
    assert.equal(isRasterOnly({ columns: [column({ kind: 'raster' })] }), true);
    assert.equal(isRasterOnly({ columns: [column({ kind: 'raster' }), column({})] }), false);
  });
});

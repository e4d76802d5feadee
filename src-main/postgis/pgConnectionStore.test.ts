import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { methods } from '../../src-shared/bridge/contract.js';
import { PgConnectionSpec } from '../../src-shared/domain/pgConnection.js';
import { appSettingsPath, openAppSettingsDb } from '../settings/appSettingsDb.js';
import { fileSecretStore } from '../settings/secretStore.js';
import { pgClientConfig } from './pgClient.js';
import { createPgConnectionStore, pgSecretName, POSTGIS_CONNECTIONS_KEY } from './pgConnectionStore.js';

const homes: string[] = [];
after(() => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});
function open() {
  const home = mkdtempSync(join(tmpdir(), 'mapwright-pgstore-'));
  homes.push(home);
  const db = openAppSettingsDb(home);
  const secrets = fileSecretStore(home);
  let n = 0;
  return { home, db, secrets, store: createPgConnectionStore(db, secrets, () => `pg-${++n}`) };
}
const draft = { name: 'Local', host: 'localhost', port: 5432, database: 'gis', user: 'me', sslmode: 'prefer' as const, outputSchema: null };
const PASSWORD = 'pa55-Only-In-The-Secret-Store';

/** Every file under a folder but the secret store's, to look for a secret where it must not be. */
function bytesOutsideSecrets(home: string): string {
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !join(e.parentPath, e.name).startsWith(join(home, 'secrets')))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'))
    .join('\n');
}

describe('PostGIS connection store', () => {
  it('keeps specs in the app settings and the password only in the secret store', () => {
    const { home, db, secrets, store } = open();
    const saved = store.save(draft, PASSWORD);
    assert.deepEqual(saved, { ...draft, id: 'pg-1', hasPassword: true });
    assert.deepEqual(store.list(), [saved]);
    assert.equal(secrets.get(pgSecretName('pg-1')), PASSWORD);
    assert.equal(store.password('pg-1'), PASSWORD);
    assert.doesNotMatch(JSON.stringify(db.get(POSTGIS_CONNECTIONS_KEY)), /pa55/);
    db.close();
    // The settings database (and its WAL) never holds it; only the secrets folder does.
    assert.match(readFileSync(appSettingsPath(home), 'latin1'), /postgis\.connections/);
    assert.doesNotMatch(bytesOutsideSecrets(home), /pa55-Only/);
    assert.match(readFileSync(join(home, 'secrets', 'model-keys.json'), 'utf8'), /pa55-Only/);
  });

  it('keeps, replaces and removes the password as asked, and deletes both', () => {
    const { store, secrets } = open();
    const { id } = store.save(draft, PASSWORD);
    store.save({ ...draft, id, name: 'Renamed' });
    assert.equal(store.password(id), PASSWORD, 'no password given: the stored one stays');
    assert.equal(store.get(id)?.name, 'Renamed');
    store.save({ ...draft, id }, null);
    assert.equal(store.list()[0]?.hasPassword, false);
    store.save({ ...draft, id }, 'again');
    assert.equal(store.delete(id), true);
    assert.deepEqual(store.list(), []);
    assert.equal(secrets.get(pgSecretName(id)), null);
    assert.equal(store.delete(id), false);
  });

  it('skips a damaged entry instead of losing the list', () => {
    const { db, store } = open();
    db.set(POSTGIS_CONNECTIONS_KEY, [{ ...draft, id: 'ok' }, { id: 'bad', host: "x'; drop" }, 42]);
    assert.deepEqual(
      store.list().map((c) => c.id),
      ['ok'],
    );
  });

  it('refuses a host that is not a host name or an address', () => {
    for (const host of ["db'host", 'db;host', 'db host', 'db\nhost', 'host=evil', 'db options=-csearch_path=x', '/tmp/socket', '', '-x']) {
      assert.equal(PgConnectionSpec.safeParse({ ...draft, id: 'x', host }).success, false, JSON.stringify(host));
    }
    for (const host of ['localhost', 'db.example.com', '10.0.0.5', '::1', '[::1]', 'fe80::1', 'my-db01'])
      assert.equal(PgConnectionSpec.safeParse({ ...draft, id: 'x', host }).success, true, host);
    assert.equal(PgConnectionSpec.safeParse({ ...draft, id: 'x', database: 'gis\n' }).success, false, 'no control characters');
    assert.equal(PgConnectionSpec.safeParse({ ...draft, id: 'x', password: 'p' }).success, false, 'no password field');
  });

  it('hands odd names to the driver as values, never as a connection string', () => {
    const spec = PgConnectionSpec.parse({ ...draft, id: 'x', database: "gis' options='-c search_path=evil", user: 'me dbname=postgres' });
    const config = pgClientConfig(spec, 'secret', false);
    assert.equal(config.database, "gis' options='-c search_path=evil");
    assert.equal(config.user, 'me dbname=postgres');
    assert.equal(config.connectionString, undefined);
    assert.equal(config.application_name, 'mapwright');
    assert.equal(typeof config.password, 'function', 'never falls back to PGPASSWORD or ~/.pgpass');
    assert.equal(pgClientConfig({ ...spec, host: '[::1]' }, null, false).host, '::1');
  });

  it('takes a password through the bridge only beside the connection, never inside it', () => {
    const params = methods['postgis/save-connection'].params;
    assert.equal(params.safeParse({ connection: draft, password: 'p' }).success, true);
    assert.equal(params.safeParse({ connection: { ...draft, password: 'p' } }).success, false);
    assert.equal(methods['postgis/test-connection'].params.safeParse({ id: 'PG:host=evil' }).success, false);
  });
});

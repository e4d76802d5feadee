import { after, before, type TestContext } from 'node:test';
import type { PgConnectionDraft, PgConnectionListed, PgConnectionSpec } from '../../../src-shared/domain/pgConnection.js';
import type { Services } from '../../composition/services.js';
import { startPgTestCluster, type PgTestCluster, type PgTestClusterOptions } from './pgTestCluster.js';

export interface PgSuite {
  /** The running cluster; null when it could not start (then every `need` skips). */
  readonly cluster: PgTestCluster | null;
  /** Settles when the cluster is up (or known missing): other `before` hooks await it, whatever their order. */
  ready(): Promise<PgTestCluster | null>;
  /** The cluster, or the test skipped with the reason the cluster is missing. */
  need(t: TestContext): PgTestCluster | null;
}

/**
 * A throwaway PostGIS server for the test file that calls this (at its top level or in a
 * describe block): started before its tests, `setupSql` run as the superuser, stopped after.
 * Without the server binaries it prints why and every `need` skips.
 */
export function pgClusterSuite(options: PgTestClusterOptions & { setupSql?: string } = {}): PgSuite {
  let cluster: PgTestCluster | null = null;
  let skipReason = '';
  let starting: Promise<PgTestCluster | null> | null = null;
  const start = async (): Promise<PgTestCluster | null> => {
    const result = await startPgTestCluster(options);
    if ('skip' in result) {
      skipReason = `PostGIS tests skipped: ${result.skip}`;
      console.log(skipReason);
      return null;
    }
    cluster = result;
    if (options.setupSql) {
      const admin = await cluster.admin();
      try {
        await admin.query(options.setupSql);
      } finally {
        await admin.end();
      }
    }
    return cluster;
  };
  const ready = () => (starting ??= start());
  before(ready);
  after(async () => {
    await cluster?.stop();
  });
  return {
    get cluster() {
      return cluster;
    },
    ready,
    need(t) {
      if (!cluster) t.skip(skipReason || 'no test cluster');
      return cluster;
    },
  };
}

/** A connection spec for the test cluster as its superuser (no TLS, no results schema unless given). */
export function testConnectionSpec(c: PgTestCluster, over: Partial<PgConnectionSpec> = {}): PgConnectionSpec {
  return {
    id: 'test',
    name: 'Test cluster',
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    sslmode: 'disable',
    outputSchema: null,
    ...over,
  };
}

/** Saves the test cluster as a connection through an app's bridge (`postgis/save-connection`), password included. */
export async function saveTestConnection(
  services: Pick<Services, 'invoke'>,
  c: PgTestCluster,
  over: Partial<PgConnectionDraft> = {},
  password: string = c.password,
): Promise<PgConnectionListed> {
  const { id: _id, ...spec } = testConnectionSpec(c, over);
  const saved = (await services.invoke('postgis/save-connection', { connection: { ...spec, ...over }, password })) as {
    connection: PgConnectionListed;
  };
  return saved.connection;
}

/**
 * Shared by the push-down tests: the throwaway PostGIS server, a session on it, and GDAL's
 * command line to copy tables between it and GeoPackages, so the local algorithms (the real
 * GIS worker) and the referee's measures run on exactly the data the database holds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, type TestContext } from 'node:test';
import type pg from 'pg';
import { FIXTURES } from '../../gis-worker/testSupport.js';
import { startPgTestCluster, type PgTestCluster } from '../testing/pgTestCluster.js';
import { describePgInput } from './describeInput.js';
import type { PgInput, PushdownSession } from './types.js';

export const NC_GPKG = `${FIXTURES}/nc.gpkg`;

export interface PgSuite {
  cluster(): PgTestCluster | null;
  skipReason(): string;
  /** The admin client made in `before` (setup and checks). */
  admin(): pg.Client;
  /** A fresh session (its own client and control connections); end `client` after. */
  session(): Promise<PushdownSession>;
  input(schema: string, table: string, geomColumn?: string): Promise<PgInput>;
  /** Copies a table of the server into a GeoPackage layer with ogr2ogr. */
  toGpkg(schemaTable: string, file: string, layer: string): void;
}

/** Starts the cluster in `before` (with `setup` SQL run then), stops it in `after`. */
export function pgSuite(opts: { points: boolean; setup?: (admin: pg.Client) => Promise<void> }): PgSuite {
  let cluster: PgTestCluster | null = null;
  let admin: pg.Client | null = null;
  let skip = '';
  before(async () => {
    const started = await startPgTestCluster({ ncGpkg: NC_GPKG, points: opts.points });
    if ('skip' in started) {
      skip = `PostGIS push-down tests skipped: ${started.skip}`;
      console.log(skip);
      return;
    }
    cluster = started;
    console.log(`PostGIS test cluster ${cluster.version}: timings`, cluster.timings);
    admin = await cluster.admin();
    await opts.setup?.(admin);
  });
  after(async () => {
    await admin?.end().catch(() => undefined);
    await cluster?.stop();
  });
  const need = () => {
    if (!cluster || !admin) throw new Error('no test cluster');
    return { cluster, admin };
  };
  return {
    cluster: () => cluster,
    skipReason: () => skip || 'no test cluster',
    admin: () => need().admin,
    session: async () => {
      const { cluster: c } = need();
      return { client: await c.admin(), openControl: () => c.admin() };
    },
    input: async (schema, table, geomColumn) => {
      const d = await describePgInput(need().admin, { schema, table, ...(geomColumn ? { geomColumn } : {}) });
      return { schema: d.schema, table: d.table, geomColumn: d.geomColumn, srid: d.srid, keyColumn: d.keyColumn };
    },
    toGpkg: (schemaTable, file, layer) => {
      const { cluster: c } = need();
      execFileSync(
        'ogr2ogr',
        [
          '-f',
          'GPKG',
          ...(existsSync(file) ? ['-update', '-overwrite'] : []),
          file,
          `PG:host=127.0.0.1 port=${c.port} dbname=${c.database} user=${c.user}`,
          schemaTable,
          '-nln',
          layer,
        ],
        { env: { ...process.env, PGPASSWORD: c.password, GDAL_PAM_ENABLED: 'NO' }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
    },
  };
}

/** The test's cluster, or a skip with the reason. */
export function needCluster(suite: PgSuite, t: TestContext): PgTestCluster | null {
  const c = suite.cluster();
  if (!c) t.skip(suite.skipReason());
  return c;
}

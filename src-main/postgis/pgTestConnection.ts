import type { PgConnectionSpec, PgTestReport } from '../../src-shared/domain/pgConnection.js';
import { withPgClient, type PgClientOptions } from './pgClient.js';

/**
 * "Test connection": connects as the saved connection would and reports the server's and
 * PostGIS's versions, or why not (unreachable, time-out, authentication, no such database,
 * TLS, PostGIS not installed in that database).
 */
export async function testPgConnection(
  spec: PgConnectionSpec,
  password: string | null,
  options: PgClientOptions = {},
): Promise<PgTestReport> {
  return withPgClient(
    spec,
    password,
    async (client): Promise<PgTestReport> => {
      const { rows } = await client.query<{ server: string; postgis: string | null; available: string | null; ssl: boolean | null }>(
        `SELECT current_setting('server_version') AS server,
                (SELECT extversion FROM pg_extension WHERE extname = $1) AS postgis,
                (SELECT default_version FROM pg_available_extensions WHERE name = $1) AS available,
                (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl`,
        ['postgis'],
      );
      const row = rows[0];
      // Debian reports '15.14 (Debian 15.14-0+deb12u1)': the number is what matters.
      const server = (row?.server ?? '').split(' ')[0] ?? '';
      if (!row?.postgis)
        return {
          ok: false,
          code: 'postgis_missing',
          reason: row?.available
            ? `PostgreSQL ${server} answers, but PostGIS is not installed in database ${JSON.stringify(spec.database)} (version ${row.available} is available: CREATE EXTENSION postgis).`
            : `PostgreSQL ${server} answers, but PostGIS is not installed on this server.`,
        };
      return { ok: true, server, postgis: row.postgis, ssl: row.ssl === true };
    },
    options,
  );
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL + PostGIS server for the tests (issue 16): its own data folder in a
 * fresh temporary directory, listening only on 127.0.0.1 at a free port, with a random
 * password, real data loaded, and removed again by `stop()`. It never touches a cluster the
 * machine may already run. Without the binaries it answers `{ skip }` and the tests say why.
 */
export interface PgTestCluster {
  host: '127.0.0.1';
  port: number;
  /** The test superuser (scram-sha-256 over TCP). */
  user: string;
  password: string;
  /** A database with the postgis extension, `nc_counties` and (unless left out) `points_1m`. */
  database: string;
  /** Major version of the server binaries used, e.g. '15'. */
  version: string;
  /** Seconds taken by each step (initdb, start, postgis, nc, points), for the report. */
  timings: Record<string, number>;
  /** A connected client as the superuser (to `database` unless named); the caller ends it. */
  admin(database?: string): Promise<pg.Client>;
  /** Generates the 1,000,000-point table if it was left out at start; returns seconds taken. */
  loadPoints(): Promise<number>;
  stop(): Promise<void>;
}

export interface PgTestClusterOptions {
  /** The NC counties GeoPackage to load as `nc_counties`; none: not loaded. */
  ncGpkg?: string;
  /** Load the 1,000,000-point table at start (default true). */
  points?: boolean;
}

const PG_ROOT = '/usr/lib/postgresql';
const SUPERUSER = 'mw_test_admin';
const DATABASE = 'mapwright_test';
/** The NC counties' extent (NAD27 degrees): the random points fall on the same map. */
const NC_EXTENT = { minX: -84.3239, minY: 33.882, maxX: -75.457, maxY: 36.5896 };

/** The newest installed server whose initdb, pg_ctl and postgres exist, and that has PostGIS. */
function findServer(): { bin: string; version: string } | { skip: string } {
  // MAPWRIGHT_PG_BIN: another installation's bin folder (e.g. Homebrew's, or a newer build).
  const override = process.env.MAPWRIGHT_PG_BIN;
  const candidates = override
    ? [{ bin: override, version: '?' }]
    : existsSync(PG_ROOT)
      ? readdirSync(PG_ROOT)
          .filter((v) => /^\d+$/.test(v))
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => ({ bin: join(PG_ROOT, v, 'bin'), version: v }))
      : [];
  if (candidates.length === 0)
    return { skip: `no PostgreSQL server binaries under ${PG_ROOT} (Debian: apt install postgresql-15 postgresql-15-postgis-3)` };
  let reason = '';
  for (const c of candidates) {
    const missing = ['initdb', 'pg_ctl', 'postgres', 'pg_config'].filter((b) => !existsSync(join(c.bin, b)));
    if (missing.length > 0) {
      reason ||= `${c.bin} lacks ${missing.join(', ')}`;
      continue;
    }
    const share = spawnSync(join(c.bin, 'pg_config'), ['--sharedir'], { encoding: 'utf8' }).stdout.trim();
    if (!share || !existsSync(join(share, 'extension', 'postgis.control'))) {
      reason ||= `PostgreSQL in ${c.bin} has no PostGIS (Debian: apt install postgresql-15-postgis-3)`;
      continue;
    }
    const version =
      c.version === '?'
        ? (spawnSync(join(c.bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.match(/(\d+)\./)?.[1] ?? '?')
        : c.version;
    return { bin: c.bin, version };
  }
  return { skip: reason };
}

/** A port free on loopback now (the server binds it a moment later; a clash is retried). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root, and CI runs as root: then the server runs as `postgres`. */
function asServerUser(): { uid: number; gid: number } | null | { skip: string } {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!uid || !gid) return { skip: 'running as root and there is no `postgres` user to run the server as' };
  return { uid, gid };
}

function command(owner: { uid: number; gid: number } | null, file: string, args: string[]): [string, string[]] {
  return owner ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

function run(
  owner: { uid: number; gid: number } | null,
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const [cmd, argv] = command(owner, file, args);
  const result = spawnSync(cmd, argv, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
}

const seconds = (since: number) => Math.round((performance.now() - since) / 10) / 100;

async function waitForServer(config: pg.ClientConfig, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}): ${log()}`);
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 30 s: ${String(err)}; ${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * One INSERT … SELECT over generate_series, then the indexes built in bulk (faster than
 * keeping them up to date row by row), then statistics so the planner's estimate is real.
 */
const POINTS_SQL = `
  CREATE TABLE points_1m (id integer NOT NULL, value double precision NOT NULL, geom geometry(Point, 4267) NOT NULL);
  INSERT INTO points_1m (id, value, geom)
    SELECT g, random() * 1000,
           ST_SetSRID(ST_MakePoint(${NC_EXTENT.minX} + random() * ${NC_EXTENT.maxX - NC_EXTENT.minX},
                                   ${NC_EXTENT.minY} + random() * ${NC_EXTENT.maxY - NC_EXTENT.minY}), 4267)
    FROM generate_series(1, 1000000) AS g;
  ALTER TABLE points_1m ADD PRIMARY KEY (id);
  CREATE INDEX points_1m_geom_idx ON points_1m USING gist (geom);
  ANALYZE points_1m;`;

export async function startPgTestCluster(options: PgTestClusterOptions = {}): Promise<PgTestCluster | { skip: string }> {
  const server = findServer();
  if ('skip' in server) return server;
  const owner = asServerUser();
  if (owner && 'skip' in owner) return owner;
  if (options.ncGpkg && !existsSync(options.ncGpkg)) return { skip: `the NC counties fixture ${options.ncGpkg} is missing` };
  if (options.ncGpkg && spawnSync('ogr2ogr', ['--version']).status !== 0) return { skip: 'ogr2ogr (gdal-bin) is not installed' };

  const timings: Record<string, number> = {};
  // The server user must reach the folder: a TMPDIR inside root's home would not do.
  const base = owner && spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', tmpdir()]).status !== 0 ? '/tmp' : tmpdir();
  const dir = mkdtempSync(join(base, 'mapwright-pg-'));
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  mkdirSync(socketDir);
  const password = randomBytes(18).toString('base64url');
  const pwFile = join(dir, 'pwfile');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (owner) for (const p of [dir, socketDir, pwFile]) chownSync(p, owner.uid, owner.gid);

  let postgres: ChildProcess | null = null;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', onExit);
    if (postgres && postgres.exitCode === null) {
      const exited = new Promise<void>((r) => postgres!.once('exit', () => r()));
      // Immediate shutdown: the data is thrown away anyway. pg_ctl signals the postmaster
      // itself, whichever user it runs as; the kill below covers a pg_ctl that failed.
      const [cmd, argv] = command(owner, join(server.bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
      spawnSync(cmd, argv, { cwd: dir, stdio: 'ignore' });
      const timer = setTimeout(() => postgres?.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  // A test process that dies without `after` must not leave a server running on the machine.
  const onExit = () => {
    if (stopped || !postgres || postgres.exitCode !== null) return;
    const [cmd, argv] = command(owner, join(server.bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
    spawnSync(cmd, argv, { cwd: dir, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  try {
    let t = performance.now();
    run(
      owner,
      join(server.bin, 'initdb'),
      [
        '-D',
        dataDir,
        '-U',
        SUPERUSER,
        `--pwfile=${pwFile}`,
        '--auth-host=scram-sha-256',
        '--auth-local=scram-sha-256',
        '-E',
        'UTF8',
        '--no-sync',
        '--locale=C',
      ],
      dir,
    );
    rmSync(pwFile); // initdb has it hashed; no plain copy stays on disk while the server runs.
    timings.initdb = seconds(t);

    t = performance.now();
    let port = 0;
    let stderr = '';
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      const args = [
        '-D', dataDir,
        '-p', String(port),
        '-c', 'listen_addresses=127.0.0.1',
        '-c', `unix_socket_directories=${socketDir}`,
        // Speed over durability: the cluster lives for one test file.
        '-c', 'fsync=off',
        '-c', 'synchronous_commit=off',
        '-c', 'full_page_writes=off',
        '-c', 'max_wal_size=1GB',
        '-c', 'maintenance_work_mem=256MB',
      ]; // prettier-ignore
      const [cmd, argv] = command(owner, join(server.bin, 'postgres'), args);
      stderr = '';
      postgres = spawn(cmd, argv, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      postgres.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      });
      const config = { host: '127.0.0.1', port, user: SUPERUSER, password, database: 'postgres' };
      try {
        await waitForServer(config, postgres, () => stderr);
        break;
      } catch (err) {
        if (attempt < 2 && /already in use|could not bind/i.test(stderr)) continue;
        throw err;
      }
    }
    timings.start = seconds(t);

    const admin = async (database = DATABASE): Promise<pg.Client> => {
      const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database });
      await client.connect();
      return client;
    };

    t = performance.now();
    const root = await admin('postgres');
    await root.query(`CREATE DATABASE ${DATABASE}`);
    await root.end();
    const db = await admin();
    await db.query('CREATE EXTENSION postgis');
    await db.end();
    timings.postgis = seconds(t);

    if (options.ncGpkg) {
      t = performance.now();
      // Our own values only (a test helper): the app itself never builds a connection string.
      const target = `PG:host=127.0.0.1 port=${port} dbname=${DATABASE} user=${SUPERUSER}`;
      const env = { ...process.env, PGPASSWORD: password, PG_USE_COPY: 'YES' };
      const result = spawnSync(
        'ogr2ogr',
        ['-f', 'PostgreSQL', target, options.ncGpkg, '-nln', 'nc_counties', '-lco', 'SPATIAL_INDEX=GIST', '-lco', 'GEOMETRY_NAME=geom'],
        {
          env,
          encoding: 'utf8',
        },
      );
      if (result.status !== 0) throw new Error(`ogr2ogr into the test cluster failed: ${result.stderr}`);
      timings.nc = seconds(t);
    }

    const loadPoints = async (): Promise<number> => {
      const started = performance.now();
      const client = await admin();
      try {
        await client.query(POINTS_SQL);
      } finally {
        await client.end();
      }
      return seconds(started);
    };
    if (options.points !== false) timings.points = await loadPoints();

    return {
      host: '127.0.0.1',
      port,
      user: SUPERUSER,
      password,
      database: DATABASE,
      version: server.version,
      timings,
      admin,
      loadPoints,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

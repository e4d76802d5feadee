import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { PgTestCluster } from '../../src-main/postgis/testing/pgTestCluster.js';
import { pgClusterSuite } from '../../src-main/postgis/testing/pgTestSuite.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { BridgeSocket } from '../support/bridgeSocket.js';
import { postgisPanel } from '../support/postgisPanel.js';
import { lastToolResult } from '../support/modelRequests.js';
import { gisFixtures } from '../support/webHost.js';

interface ProjectLayer {
  id: string;
  name: string;
  source: string;
  sublayer: string | null;
}

interface ToolResultBody {
  ok: boolean;
  data?: { output: string; feature_count: number; notes: string[] };
  error?: { code: string; message: string };
}

/**
 * Push-down (issue 16, "e2e: … run a push-down buffer with approval"), against a real
 * throwaway PostgreSQL + PostGIS: a connection with a results schema, a projected table loaded
 * from the PostGIS panel, and `processing_run buffer` on it. The dialog says the run happens in
 * the database; once approved, a new table `results.<name>` is made there and loaded as a
 * `postgis://` layer, with the same area GDAL's own buffer gives. A rejected run makes no
 * table; a stopped one leaves none. Without the server binaries every test skips and says why.
 */
describe('PostGIS push-down: a buffer run inside the database, with approval', () => {
  // The counties in UTM 17N (metres): a buffer in metres is refused on the NAD27 degrees. And
  // 200,000 points over North Carolina in UTM 17N: a dissolved buffer of them takes a while (Stop).
  const pg = pgClusterSuite({
    ncGpkg: join(gisFixtures, 'nc.gpkg'),
    points: false,
    setupSql: `
        CREATE TABLE nc_utm AS
          SELECT fid, name, ST_Transform(geom, 32617)::geometry(MultiPolygon, 32617) AS geom FROM nc_counties;
        ALTER TABLE nc_utm ADD PRIMARY KEY (fid);
        CREATE INDEX ON nc_utm USING gist (geom);
        ANALYZE nc_utm;
        CREATE SCHEMA results;

        CREATE TABLE pts_utm AS
          SELECT g AS id, ST_SetSRID(ST_MakePoint(300000 + random() * 600000, 3750000 + random() * 300000), 32617)::geometry(Point, 32617) AS geom
          FROM generate_series(1, 200000) AS g;
        ALTER TABLE pts_utm ADD PRIMARY KEY (id);
        CREATE INDEX ON pts_utm USING gist (geom);
        ANALYZE pts_utm;`,
  });
  const need = (t: TestContext) => pg.need(t);
  let work = '';
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'mapwright-e2e-pgpd-'));
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const session = useAppSession({ homePrefix: 'mapwright-e2e-pgpd-' });
  let { page, app, model } = {} as SharedApp;
  let bridge: BridgeSocket;
  let connectionId = '';

  before(async () => {
    if (!(await pg.ready())) return;
    ({ page, app, model } = await session.openApp());
    bridge = await BridgeSocket.connect(session.host.url);
  });
  after(() => bridge?.close());

  const panel = postgisPanel(() => page);
  const projectLayers = async () => (await bridge.call<{ layers: ProjectLayer[] }>('project/get')).layers;
  const layerOf = async (schema: string, table: string) => (await projectLayers()).find((l) => l.sublayer === `${schema}.${table}`);
  /** The results schema's tables on the server, by name. */
  const resultTables = async (c: PgTestCluster): Promise<string[]> => {
    const db = await c.admin();
    try {
      const { rows } = await db.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'results' ORDER BY 1`);
      return rows.map((r) => r.t);
    } finally {
      await db.end();
    }
  };

  /** Loads `public.<table>` from the panel (the person's own action: no dialog); returns its layer. */
  async function loadFromPanel(table: string): Promise<ProjectLayer> {
    const row = await panel.load('Push-down cluster', 'public', table);
    const failed = row.getByTestId('postgis-error');
    assert.equal(await failed.count(), 0, `load failed: ${(await failed.count()) ? await failed.innerText() : ''}`);
    const layer = await layerOf('public', table);
    assert.ok(layer, `the ${table} layer is in the project: ${JSON.stringify(await projectLayers())}`);
    await app.waitForLayer(layer.name);
    return layer;
  }

  it('adds a connection with the results schema and loads nc_utm from the panel', async (t) => {
    const c = need(t);
    if (!c) return;
    await panel.open();
    await panel.addConnection(c, { name: 'Push-down cluster', password: c.password, outputSchema: 'results' });

    const listed = await bridge.call<{ connections: { id: string; name: string; outputSchema: string | null }[] }>('postgis/connections');
    const saved = listed.connections.find((x) => x.name === 'Push-down cluster');
    assert.ok(saved, JSON.stringify(listed));
    assert.equal(saved.outputSchema, 'results', 'the results schema is saved with the connection');
    connectionId = saved.id;

    const layer = await loadFromPanel('nc_utm');
    assert.equal(layer.source, `postgis://${connectionId}`);
    await page.getByTestId('postgis-close').click();
  });

  it('buffer by 2 km: the dialog says it runs in the database; approved, results.nc_2km is made there and drawn', async (t) => {
    const c = need(t);
    if (!c) return;
    const input = await layerOf('public', 'nc_utm');
    assert.ok(input, 'nc_utm was loaded by the first test');
    const requestsBefore = model.requests.length;
    model.script([
      {
        toolCalls: [
          {
            name: 'processing_run',
            arguments: { algorithm: 'buffer', params: { input: input.name, distance: 2000 }, output_name: 'nc_2km' },
          },
        ],
      },
      { text: 'Buffered the counties by 2 km in the database.' },
    ]);
    await app.askAgent('buffer the counties by 2 km');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, new RegExp(`Runs in\\s+the PostGIS database of connection '${connectionId}'`));
    assert.ok(
      dialog.text.includes(`postgis://${connectionId}|layername=results.nc_2km`),
      `the dialog shows the output table: ${dialog.text}`,
    );
    // The preview itself (the tool's description above it speaks of the worker too): no worker, no file.
    const preview = await page.getByTestId('approval-preview').innerText();
    assert.match(preview, /Runs in\s+the PostGIS database/);
    assert.doesNotMatch(preview, /GIS worker/);
    assert.doesNotMatch(preview, /\.gpkg/, 'no output file');
    await app.screenshot('pgpd1-approval');

    const t0 = performance.now();
    await app.approvePending();
    await app.waitForLayer('nc_2km');
    await app.waitForMessage('assistant', /Buffered the counties by 2 km/, 60_000);
    console.log(`# approve to layer and reply: ${Math.round(performance.now() - t0)} ms`);
    await app.waitForToolCard('processing_run', 'ok');

    // What the model was told: the table made in the database, with every county.
    assert.equal(model.requests.length, requestsBefore + 2);
    const result = JSON.parse(lastToolResult(model.requests.at(-1))) as ToolResultBody;
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.data!.output, `postgis://${connectionId}|layername=results.nc_2km`);
    assert.equal(result.data!.feature_count, 100);
    assert.ok(
      result.data!.notes.some((n) => /inside the PostGIS database.*results\.nc_2km/.test(n)),
      JSON.stringify(result.data!.notes),
    );

    // The layer in the project is that table.
    const layer = (await projectLayers()).find((l) => l.name === 'nc_2km');
    assert.ok(layer);
    assert.equal(`${layer.source}|layername=${layer.sublayer}`, `postgis://${connectionId}|layername=results.nc_2km`);

    // On the server: the table, with 100 rows, and the area GDAL's own buffer of the same counties gives.
    assert.deepEqual(await resultTables(c), ['nc_2km']);
    const db = await c.admin();
    let serverArea: number;
    try {
      const { rows } = await db.query<{ n: string; area: number; srid: number }>(
        `SELECT COUNT(*) AS n, SUM(ST_Area(geom)) AS area, MAX(ST_SRID(geom)) AS srid FROM results.nc_2km`,
      );
      assert.equal(Number(rows[0]!.n), 100);
      assert.equal(rows[0]!.srid, 32617);
      serverArea = rows[0]!.area;
    } finally {
      await db.end();
    }
    const gpkg = join(work, 'nc_utm.gpkg');
    const env = { ...process.env, PGPASSWORD: c.password, GDAL_PAM_ENABLED: 'NO' };
    execFileSync('ogr2ogr', ['-f', 'GPKG', gpkg, `PG:host=${c.host} port=${c.port} dbname=${c.database} user=${c.user}`, 'nc_utm'], {
      env,
    });
    // The catalogue's default: 8 segments per quarter circle (worker and push-down alike).
    const info = execFileSync(
      'ogrinfo',
      ['-ro', '-q', '-dialect', 'SQLite', '-sql', 'SELECT SUM(ST_Area(ST_Buffer(geom, 2000, 8))) AS area FROM nc_utm', gpkg],
      { env, encoding: 'utf8' },
    );
    const gdalArea = Number(/area \(Real\) = ([\d.eE+-]+)/.exec(info)?.[1]);
    assert.ok(gdalArea > 0, info);
    const relative = Math.abs(serverArea - gdalArea) / gdalArea;
    console.log(
      `# area: PostGIS ${serverArea.toFixed(1)} m², GDAL ${gdalArea.toFixed(1)} m², relative difference ${relative.toExponential(2)}`,
    );
    assert.ok(relative < 1e-6, `PostGIS ${serverArea} vs GDAL ${gdalArea}: ${relative}`);

    // The map draws it (the input hidden, so only the buffers are on screen).
    await app.setLayerVisible(input.name, false);
    await app.zoomToLayer('nc_2km');
    await app.waitForMapIdle();
    const drawn = (await app.renderedFeatureCount('geojson')) + (await app.renderedFeatureCount('vector'));
    assert.ok(drawn > 0, 'the buffers are drawn');
    await app.screenshot('pgpd2-result');
  });

  it('rejected: no second table is made', async (t) => {
    const c = need(t);
    if (!c) return;
    const input = (await layerOf('public', 'nc_utm'))!;
    model.script([
      {
        toolCalls: [
          {
            name: 'processing_run',
            arguments: { algorithm: 'buffer', params: { input: input.name, distance: 2000 }, output_name: 'nc_2km' },
          },
        ],
      },
      { text: 'Understood, nothing was run.' },
    ]);
    await app.askAgent('buffer them by 2 km again');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /the PostGIS database of connection/);
    await app.rejectPending();
    await app.waitForToolCard('processing_run', 'rejected');
    await app.waitForMessage('assistant', /nothing was run/);
    assert.deepEqual(await resultTables(c), ['nc_2km'], 'no results.nc_2km_2');
    assert.equal((await projectLayers()).filter((l) => l.name.startsWith('nc_2km')).length, 1);
  });

  it('stopped while the database runs a dissolved buffer of 200,000 points: cancelled, no table left', async (t) => {
    const c = need(t);
    if (!c) return;
    const points = await loadFromPanel('pts_utm');
    await page.getByTestId('postgis-close').click();
    model.script([
      {
        toolCalls: [
          {
            name: 'processing_run',
            arguments: { algorithm: 'buffer', params: { input: points.name, distance: 1500, dissolve: true }, output_name: 'pts_merged' },
          },
        ],
      },
      { text: 'This reply must not be asked for after Stop.' },
    ]);
    const requestsBefore = model.requests.length;
    await app.askAgent('buffer the points by 1.5 km and merge them');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /the PostGIS database of connection/);
    await app.approvePending();
    await app.waitForToolCard('processing_run', 'running');

    // Wait until the buffer's statement is running on the server, then Stop.
    const db = await c.admin();
    try {
      const active = async () =>
        (
          await db.query<{ pid: number; query: string }>(
            `SELECT pid, query FROM pg_stat_activity WHERE state = 'active' AND application_name = 'mapwright' AND query ILIKE '%ST_Buffer%'`,
          )
        ).rows;
      const deadline = Date.now() + 30_000;
      while ((await active()).length === 0) {
        assert.ok(Date.now() < deadline, 'the buffer statement never showed in pg_stat_activity');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      assert.ok((await active()).length > 0, 'the buffer was still running half a second later (heavy enough to stop)');
      const t0 = performance.now();
      await page.getByTestId('stop-run').click();
      const card = await app.waitForToolCard('processing_run', 'error', 30_000);
      const took = Math.round(performance.now() - t0);
      console.log(`# Stop to error card: ${took} ms`);
      assert.match(card, /cancelled/i, card);
      await app.waitForRunIdle();
      await app.screenshot('pgpd3-stopped');

      // The statement is gone from the server and no output table remains.
      const deadline2 = Date.now() + 10_000;
      while ((await active()).length > 0) {
        assert.ok(Date.now() < deadline2, 'the buffer statement still runs after Stop');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await db.end();
    }
    assert.deepEqual(await resultTables(c), ['nc_2km'], 'no pts_merged table');
    assert.equal(
      (await projectLayers()).some((l) => l.name === 'pts_merged'),
      false,
    );
    assert.equal(model.requests.length, requestsBefore + 1, 'the model was not asked again after Stop');
  });
});

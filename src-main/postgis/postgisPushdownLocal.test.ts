import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { ApprovalRequest, ChatMessage } from '../../src-shared/domain/chat.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { parseSource } from '../../src-shared/domain/source.js';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { fixtures, startApp } from '../composition/testApp.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { pgClusterSuite, saveTestConnection } from './testing/pgTestSuite.js';

/**
 * processing_run on a PostGIS table of a connection without a results schema (issue 16),
 * through the whole main process: the dialog says it runs in the database and comes back as a
 * local GeoPackage in the outputs folder; the run happens there, nothing stays on the server,
 * and the result is loaded as a layer of that file.
 */
const pg = pgClusterSuite({
  ncGpkg: join(fixtures, 'nc.gpkg'),
  points: false,
  setupSql: `CREATE TABLE nc_utm AS SELECT * FROM nc_counties;
    ALTER TABLE nc_utm ALTER COLUMN geom TYPE geometry(MultiPolygon, 32617) USING ST_Transform(geom, 32617);
    ALTER TABLE nc_utm ADD COLUMN id serial PRIMARY KEY;`,
});
const need = (t: TestContext) => pg.need(t);
let app: Awaited<ReturnType<typeof startApp>>;
let conn: PgConnectionListed;
let model: ScriptedModelServer;
after(async () => {
  await app?.services.close();
});
const layers = async () => ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers;

describe('processing_run on PostGIS without a results schema', () => {
  scriptedModelSuite((started) => (model = started));
  before(async () => {
    const c = await pg.ready();
    if (!c) return;
    app = await startApp(model);
    conn = await saveTestConnection(app.services, c);
    const r = await app.services.invoke('postgis/load', { id: conn.id, schema: 'public', table: 'nc_utm' });
    assert.ok((r as { ok: boolean }).ok, JSON.stringify(r));
  });

  it('runs inside the database and brings the result back as a local GeoPackage layer', async (t) => {
    const c = need(t);
    if (!c) return;
    assert.equal(conn.outputSchema, null);
    const admin = await c.admin();
    const relations = async () =>
      (
        await admin.query<{ r: string }>(
          `SELECT n.nspname || '.' || c.relname AS r FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1`,
        )
      ).rows.map((x) => x.r);
    try {
      const before = await relations();
      const input = (await layers()).find((l) => l.sublayer === 'public.nc_utm')!;
      model.reset();
      model.script([
        {
          toolCalls: [
            {
              name: 'processing_run',
              arguments: { algorithm: 'buffer', params: { input: input.name, distance: 1000 }, output_name: 'nc_buf' },
            },
          ],
        },
        { text: 'Done.' },
      ]);
      await app.services.invoke('chat/send', { text: 'buffer the counties by 1 km' });
      const asked: ApprovalRequest = await app.approval();
      const preview = JSON.stringify(asked);
      assert.match(preview, new RegExp(`PostGIS database of connection '${conn.id}'`));
      assert.match(preview, /nothing is written to the server/);
      assert.match(preview, /outputs[\\/]+nc_buf\.gpkg/);
      await app.services.invoke('tools/decide', { approvalId: asked.id, decision: 'approve' });
      await app.runFinished(1);

      const { messages } = (await app.services.invoke('project/get', {})) as { messages: ChatMessage[] };
      const result = messages.filter((m) => m.role === 'tool').at(-1)!.tool!.result as {
        ok: boolean;
        data?: { output: string; feature_count: number; notes: string[] };
      };
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.data!.feature_count, 100);
      assert.match(result.data!.output, /outputs[\\/]+nc_buf\.gpkg\|layername=nc_buf$/);
      assert.match(
        result.data!.notes[0]!,
        /Ran inside the PostGIS database .*nothing is written to the server.*came back as the local layer/,
      );
      const file = parseSource(result.data!.output).path;
      assert.ok(existsSync(file));
      const layer = (await layers()).find((l) => l.name === 'nc_buf')!;
      assert.equal(layer.source, file);
      assert.equal(layer.sublayer, 'nc_buf');
      assert.equal(layer.info.featureCount, 100);
      assert.equal(layer.info.crs?.epsg, 32617);
      assert.ok(layer.info.fields.some((f) => f.name === 'name'));
      assert.deepEqual(await relations(), before, 'nothing new on the server');
    } finally {
      await admin.end();
    }
  });
});

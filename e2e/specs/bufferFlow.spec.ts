import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useAppSession } from '../support/appSession.js';
import { repoRoot } from '../support/webHost.js';

const CITIES = join(repoRoot, 'e2e', 'fixtures', 'gis', 'naturalearth_cities.shp');

/**
 * "Buffer the towns by 5 km" on towns in EPSG:4326: the buffer is refused before any dialog
 * with the reprojection to make; the agent makes it, then buffers the reprojected towns.
 */
describe('buffer in metres on a degree layer, in Chromium', { skip: !existsSync(CITIES) }, () => {
  const session = useAppSession();
  let TOWNS: string;
  let count: number;

  before(async () => {
    // The towns of one region (France and its neighbours), cut from Natural Earth's cities by GDAL.
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-towns-'));
    TOWNS = join(dir, 'towns.shp');
    execFileSync('ogr2ogr', ['-spat', '-5', '42', '10', '51.5', TOWNS, CITIES], { env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } });
    count = Number(/Feature Count: (\d+)/.exec(execFileSync('ogrinfo', ['-so', TOWNS, 'towns'], { encoding: 'utf8' }))![1]);
  });
  after(() => rmSync(dirname(TOWNS), { recursive: true, force: true }));

  it('the prepare error, then the reprojection, then the buffer', async () => {
    const { app } = await session.openApp();
    const model = session.model;
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: TOWNS, name: 'towns' } }] },
      { toolCalls: [{ name: 'processing_run', arguments: { algorithm: 'buffer', params: { input: 'towns', distance: 5000 } } }] },
      (body) => {
        const result = JSON.parse(String(body.messages.at(-1)!.content)) as { error: { hint: string } };
        const fix = /processing_run (\{.*?\}) — then/.exec(result.error.hint)![1]!;
        return {
          text: 'The towns are in degrees; reprojecting first.',
          toolCalls: [{ name: 'processing_run', arguments: JSON.parse(fix) }],
        };
      },
      {
        toolCalls: [
          {
            name: 'processing_run',
            arguments: { algorithm: 'buffer', params: { input: 'towns_reproject', distance: 5000 }, output_name: 'towns_5km' },
          },
        ],
      },
      { text: 'Buffered the towns by 5 km.' },
    ]);
    await app.askAgent('load the towns and buffer them by 5 km');
    await app.approvePending();
    await app.waitForLayer('towns');
    // The metre buffer on degrees is refused before any dialog, with the fix.
    await app.waitForMessage('assistant', /reprojecting first/);
    const refused = (await app.messages()).filter((m) => m.role === 'tool')[1]!;
    assert.match(refused.text, /invalid_params/);
    assert.match(refused.text, /degrees/);
    const reprojectDialog = await app.waitForApproval();
    assert.match(reprojectDialog.text, /reproject/);
    assert.match(reprojectDialog.text, /EPSG:32631/, 'the UTM zone of the region (31N)');
    await app.approvePending();
    await app.waitForLayer('towns_reproject');
    const bufferDialog = await app.waitForApproval();
    assert.match(bufferDialog.text, /towns_5km\.gpkg/, 'the dialog shows where the output goes');
    await app.screenshot('b1-buffer-dialog');
    await app.approvePending();
    await app.waitForLayer('towns_5km');
    await app.waitForMessage('assistant', /Buffered the towns/);
    await app.waitForMessage('notice', /Loaded layer towns_5km \(tool output\)/);
    assert.deepEqual(await app.layerNames(), ['towns_5km', 'towns_reproject', 'towns']);
    const buffered = JSON.parse(String(model.requests[4]!.messages.at(-1)!.content)) as { ok: boolean; data: { feature_count: number } };
    assert.ok(count > 3, `a few towns in the region: ${count}`);
    assert.equal(buffered.data.feature_count, count);
    await app.screenshot('b2-buffered');
  });
});

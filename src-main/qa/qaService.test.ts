import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { QA_MENTION, type QaOutcome } from '../../src-shared/domain/qaReport.js';
import { fixtures, haveFixtures, scriptedToolCall, startApp } from '../composition/testApp.js';
import { makeTempDir } from '../gis-worker/testSupport.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { polygonLayer } from './qaTestData.js';

/**
 * Issue 17, through the whole main process: a processing_run the model asks for comes back
 * with the QA report of what it produced, and the model reads it in the next request.
 */
describe('the QA report of a processing run, through the dispatcher', { skip: !haveFixtures && 'GIS fixtures not found' }, () => {
  let model: ScriptedModelServer;
  let app: Awaited<ReturnType<typeof startApp>>;
  const tmp = makeTempDir('mapwright-qa-svc-');
  scriptedModelSuite((started) => (model = started));
  before(async () => {
    app = await startApp(model);
    const ties = polygonLayer(tmp.dir, 'ties', { valid: 2, invalid: 3, epsg: 32632, at: [500000, 5000000] });
    for (const path of [ties, `${fixtures}/nc.gpkg`]) assert.ok((await app.services.runForPerson('layers.load', { path })).ok);
  });
  after(async () => {
    await app?.services.close();
    tmp.cleanup();
  });

  const run = (params: Record<string, unknown>, output_name: string) =>
    scriptedToolCall<{ qa?: QaOutcome[]; output: string }>(app, model, {
      name: 'processing_run',
      arguments: { algorithm: 'field_calculator', params, output_name },
    });

  it('carries the invalid geometries of the output in `qa`, and the model reads it with the instruction', async () => {
    const { result } = await run({ input: 'ties', field_name: 'twice', expression: 'n * 2' }, 'ties_twice');
    assert.ok(result.ok, JSON.stringify(result));
    const [report, ...others] = result.data!.qa!;
    assert.equal(others.length, 0);
    assert.ok(report && 'extent' in report && report.extent);
    const { extent, ...facts } = report;
    // 500,000 m E, 5,000,000 m N in UTM 32N lies on its central meridian, 9° E, near 45.1° N.
    assert.ok(Math.abs(extent[0] - 9) < 0.01 && Math.abs(extent[1] - 45.1) < 0.1, `extent ${JSON.stringify(extent)}`);
    assert.deepEqual(facts, {
      layer: 'ties_twice',
      kind: 'vector',
      crs: 'EPSG:32632',
      features: 5,
      invalidGeometries: { count: 3, firstIds: [3, 4, 5] },
      warnings: [
        {
          code: 'invalid_geometries',
          message: '3 feature(s) have invalid geometries (fid 3, 4, 5); overlays, dissolves and areas on them may be wrong or fail.',
        },
      ],
      instruction: QA_MENTION,
    });
    // The tool's result as the model got it in its next request.
    const toolMessage = JSON.stringify(model.requests.at(-1));
    assert.match(toolMessage, /invalid_geometries/);
    assert.match(toolMessage, /Mention these warnings to the person/);
  });

  it('says an ST_Area computed on a layer in degrees is in square degrees; a clean output has no warning', async () => {
    const { result } = await run({ input: 'nc', field_name: 'a', expression: 'ST_Area(geom)' }, 'nc_area');
    assert.ok(result.ok, JSON.stringify(result));
    const [report] = result.data!.qa!;
    assert.ok(report && 'warnings' in report);
    assert.deepEqual(
      report.warnings.map((w) => w.code),
      ['area_in_degrees'],
    );
    const clean = await run({ input: 'nc', field_name: 'b', expression: 'BIR74 * 2' }, 'nc_births');
    const [fine] = clean.result.data!.qa!;
    assert.ok(fine && 'warnings' in fine);
    assert.deepEqual(fine.warnings, []);
    assert.equal(fine.features, 100);
    assert.equal(fine.instruction, undefined);
  });
});

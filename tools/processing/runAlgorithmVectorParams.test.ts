/**
 * processing_run with the vector catalogue's layer params: a plain table is welcome on the
 * table side of join_by_field (and as the input of attribute algorithms) but not as an overlay;
 * expressions are refused before the approval dialog; a simplify tolerance in degrees gets the
 * reprojection fix; the join's report reaches the model. Fake handles: what is checked is what
 * reaches the worker and what is refused before it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LayerKind } from '../../src-shared/domain/layer.js';
import { expectRefusal } from '../expectRefusal.js';
import { fakeLayer } from '../toolTestFakes.js';
import { runAlgorithmHarness } from './runAlgorithmTestKit.js';

const layer = (id: string, kind: LayerKind, source: string, sublayer: string | null = null) =>
  fakeLayer({ name: id, kind, source, sublayer, info: { featureCount: 177 } });

const LAYERS = [layer('world', 'vector', '/data/world.gpkg', 'world'), layer('wb', 'table', '/data/worldbank_df.csv')];
const REPORT = { matched_features: 174, input_keys_without_match: ['XK'] };

const harness = () =>
  runAlgorithmHarness(LAYERS, (req) => ({ output: req.output, featureCount: 177, notes: ['Joined 174 of 177 features'], report: REPORT }));

describe('processing_run with vector algorithms', () => {
  test('join_by_field takes a table layer, resolves both sources and hands the report to the model', async () => {
    const { request, result } = await harness().run({
      algorithm: 'join_by_field',
      params: { input: 'world', table: 'wb', input_keys: 'iso_a2', table_keys: 'iso_a2' },
    });
    assert.equal(request.params.input, '/data/world.gpkg|layername=world');
    assert.equal(request.params.table, '/data/worldbank_df.csv');
    assert.equal(request.output, '/outputs/world_join_by_field.gpkg|layername=world_join_by_field');
    assert.deepEqual(result.report, REPORT);
    assert.deepEqual(result.notes, ['Joined 174 of 177 features']);
  });

  test('attribute algorithms run on a table; overlays refuse one', async () => {
    const { request } = await harness().run({ algorithm: 'select_by_attribute', params: { input: 'wb', where: 'HDI > 0.9' } });
    assert.equal(request.params.input, '/data/worldbank_df.csv');
    const err = await expectRefusal(harness().run({ algorithm: 'clip', params: { input: 'world', overlay: 'wb' } }));
    assert.equal(err.code, 'invalid_params');
    assert.match(err.message, /params\.overlay: clip needs a vector layer; 'wb' is a table/);
  });

  test('an expression with a statement in it is refused before the dialog', async () => {
    const err = await expectRefusal(
      harness().run({ algorithm: 'field_calculator', params: { input: 'world', field_name: 'x', expression: "1; ATTACH 'evil.db' AS e" } }),
    );
    assert.equal(err.code, 'invalid_params');
    assert.match(err.message, /params\.expression: ';' is not allowed/);
  });

  test('a simplify tolerance on a worldwide degree layer comes back with the region-first fix', async () => {
    const err = await expectRefusal(harness().run({ algorithm: 'simplify', params: { input: 'world', tolerance: 500 } }));
    assert.equal(err.code, 'invalid_params');
    assert.match(err.message, /params\.tolerance is a distance/);
    // The world spans 360°: no single UTM zone holds it, so the fix is to select a region first.
    assert.match(err.hint ?? '', /too wide for one projected CRS\. Select one region first/);
  });
});

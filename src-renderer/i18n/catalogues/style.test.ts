import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RAMP_NAMES } from '../../../src-shared/style/colourRamps.js';
import { CLASS_METHODS, STYLE_KINDS } from '../../style/styleForm.js';
import { style } from './style.js';

/**
 * The panel labels its options by value (`kind_<kind>`, `method_<method>`, `ramp_<ramp>`): a
 * ramp, method or kind added to the shared lists needs its label here. English ramp labels are
 * the ramp ids, as the panel showed them before it was translated.
 */
test('the style catalogue labels every kind, class method and ramp the panel offers', () => {
  const en = style.en as Record<string, string>;
  for (const k of STYLE_KINDS) assert.ok(en[`kind_${k}`], `kind_${k}`);
  for (const m of CLASS_METHODS) assert.ok(en[`method_${m}`], `method_${m}`);
  for (const r of RAMP_NAMES) assert.equal(en[`ramp_${r}`], r, `ramp_${r}`);
  const ramps = Object.keys(en).filter((k) => k.startsWith('ramp_'));
  assert.deepEqual(ramps.sort(), RAMP_NAMES.map((r) => `ramp_${r}`).sort(), 'no ramp label without a ramp');
});

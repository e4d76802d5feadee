import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQaFailed, qaOutcomesOf } from './qaReport.js';

describe('qaOutcomesOf: the `qa` list of a payload, as the tool card reads it', () => {
  it('keeps reports and failed lines, drops what is not one, and reads no `qa` as none', () => {
    const report = { layer: 'out', kind: 'vector', crs: 'EPSG:32632', features: 3, warnings: [] };
    const failed = { layer: 'other', failed: 'QA check failed: cannot open' };
    const outcomes = qaOutcomesOf({
      qa: [report, failed, { layer: 'x' }, 'junk', null, { ...report, warnings: [{ code: 'nope', message: '' }] }],
    });
    assert.deepEqual(outcomes, [report, failed]);
    assert.deepEqual(outcomes.map(isQaFailed), [false, true]);
    for (const data of [null, undefined, 'text', { qa: 'x' }, { output: 'a.gpkg' }]) assert.deepEqual(qaOutcomesOf(data), []);
  });
});

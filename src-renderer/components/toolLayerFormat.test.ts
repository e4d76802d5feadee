import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { previewLabel, previewRows } from './approvalPreviewRows.js';
import { auditTime, decisionLabel } from './auditFormat.js';

describe('approval preview rows', () => {
  it('labels known keys, spells out others, formats values and leaves out unknowns', () => {
    assert.deepEqual(
      previewRows({ input: 'rivers', features: 12345, crs: 'EPSG:4326', output: '/p/out.gpkg', overwrite: false, extra: null }),
      [
        { key: 'input', label: 'Input layer', value: 'rivers' },
        { key: 'features', label: 'Features', value: '12,345' },
        { key: 'crs', label: 'CRS', value: 'EPSG:4326' },
        { key: 'output', label: 'Output', value: '/p/out.gpkg' },
        { key: 'overwrite', label: 'Overwrite', value: 'no' },
      ],
    );
    assert.equal(previewLabel('featureCount'), 'Feature count');
    assert.equal(previewLabel('target_crs'), 'Target crs');
  });
});

describe('audit formatting', () => {
  it('says who decided', () => {
    assert.equal(decisionLabel({ decision: 'approved', decidedBy: 'user' }), 'approved (user)');
    assert.equal(decisionLabel({ decision: 'not_needed', decidedBy: 'policy' }), 'not needed (policy)');
    assert.equal(decisionLabel({ decision: 'user_action', decidedBy: 'user' }), 'your action');
  });

  it('shows the time of day and keeps unparseable times as they are', () => {
    assert.match(auditTime('2025-03-04T05:06:07Z').short, /^\d\d:\d\d:07$/);
    assert.deepEqual(auditTime('garbage'), { short: 'garbage', full: 'garbage' });
  });
});

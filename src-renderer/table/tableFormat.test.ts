import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellText, clampWidth, countText, defaultColumnWidth, nextSort } from './tableFormat.js';

describe('tableFormat', () => {
  it('cycles a column’s sort: ascending, descending, none', () => {
    const asc = nextSort(null, 'NAME');
    assert.deepEqual(asc, { field: 'NAME', descending: false });
    const desc = nextSort(asc, 'NAME');
    assert.deepEqual(desc, { field: 'NAME', descending: true });
    assert.equal(nextSort(desc, 'NAME'), null);
    assert.deepEqual(nextSort(desc, 'AREA'), { field: 'AREA', descending: false });
  });

  it('counts rows, and matches against the whole layer under a filter', () => {
    assert.equal(countText(1_000_000, false, null), '1,000,000 rows');
    assert.equal(countText(1, false, null), '1 row');
    assert.equal(countText(11, true, 100), '11 of 100 match');
    assert.equal(countText(11, true, null), '11 match');
    assert.equal(countText(null, false, null), 'Loading…');
  });

  it('shows cells as one line of text', () => {
    assert.equal(cellText(null), 'NULL');
    assert.equal(cellText(0.1141), '0.1141');
    assert.equal(cellText(false), 'false');
  });

  it('sizes columns from type and name, within bounds', () => {
    assert.equal(defaultColumnWidth('AREA', 'Real'), 96);
    assert.equal(defaultColumnWidth('NAME', 'String'), 140);
    assert.ok(defaultColumnWidth('A_VERY_LONG_FIELD_NAME_INDEED', 'Real') > 200);
    assert.equal(clampWidth(5), 48);
    assert.equal(clampWidth(5000), 800);
  });
});

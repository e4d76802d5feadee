import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rowClickOutcome } from './rowClick.js';

const between = (a: number, b: number) => Array.from({ length: Math.abs(b - a) + 1 }, (_, i) => 100 + Math.min(a, b) + i);
const none = { fids: new Set<number>(), anchorIndex: undefined };

describe('rowClickOutcome', () => {
  it('a plain click selects that row alone and anchors there', () => {
    assert.deepEqual(rowClickOutcome({ fid: 105, index: 5, toggle: false, range: false }, none, between), {
      kind: 'replace',
      fids: [105],
      anchor: 105,
    });
  });
  it('ctrl/cmd toggles the row', () => {
    assert.deepEqual(rowClickOutcome({ fid: 105, index: 5, toggle: true, range: false }, none, between), { kind: 'toggle', fid: 105 });
  });
  it('shift selects from the anchor to the row, ctrl+shift adds', () => {
    const current = { fids: new Set([102]), anchorIndex: 2 };
    assert.deepEqual(rowClickOutcome({ fid: 105, index: 5, toggle: false, range: true }, current, between), {
      kind: 'range',
      fids: [102, 103, 104, 105],
      additive: false,
    });
    assert.equal(
      (rowClickOutcome({ fid: 100, index: 0, toggle: true, range: true }, current, between) as { additive: boolean }).additive,
      true,
    );
  });
  it('shift without a loaded anchor is a plain click', () => {
    assert.equal(rowClickOutcome({ fid: 105, index: 5, toggle: false, range: true }, none, between).kind, 'replace');
  });
});

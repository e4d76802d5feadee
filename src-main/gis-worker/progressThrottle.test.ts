import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressThrottle } from './progressThrottle.js';

test('per-feature progress is thinned to steps, and completion always gets through', () => {
  const seen: number[] = [];
  const report = progressThrottle((f) => seen.push(f), 0.1, 60_000);
  for (let i = 0; i <= 1000; i++) report(i / 1000, 'Reading features');
  assert.ok(seen.length >= 10 && seen.length <= 12, `${seen.length} reports`);
  assert.equal(seen.at(-1), 1);
  report(1, 'Reading features');
  assert.equal(seen.filter((f) => f === 1).length, 1, 'completion is reported once');
});

test('a new message is always passed on', () => {
  const seen: string[] = [];
  const report = progressThrottle((_f, m) => seen.push(m), 0.5, 60_000);
  report(0.1, 'Opening');
  report(0.11, 'Reading');
  assert.deepEqual(seen, ['Opening', 'Reading']);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stretchToGrey } from './stretch.js';

test('linear stretch from min..max to 0..255, clamped outside', () => {
  const { grey, alpha, visible } = stretchToGrey([1000, 1102, 1510, 900, 2000], [255, 255, 255, 255, 255], 1000, 1510);
  assert.deepEqual([...grey], [0, 51, 255, 0, 255]);
  assert.deepEqual([...alpha], [255, 255, 255, 255, 255]);
  assert.equal(visible, 5);
});

test('no data and NaN are transparent; partial alpha is kept for smooth edges', () => {
  const { grey, alpha, visible } = stretchToGrey([1, Number.NaN, 1, 1], [0, 255, 128, 255], 0, 2);
  assert.deepEqual([...alpha], [0, 0, 128, 255]);
  assert.equal(grey[0], 0);
  assert.equal(visible, 2);
});

test('a flat band (min = max) draws without dividing by zero', () => {
  const { grey } = stretchToGrey([7, 7], [255, 255], 7, 7);
  assert.deepEqual([...grey], [0, 0]);
});

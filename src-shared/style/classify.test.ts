import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classBreaks, classCounts, classIndex, evenSample, jenksBreaks, quantile, JENKS_SAMPLE } from './classify.js';

/** Sum of squared deviations from the class means: what Jenks minimises. */
function sdcm(classes: number[][]): number {
  return classes.reduce((total, c) => {
    const mean = c.reduce((s, v) => s + v, 0) / c.length;
    return total + c.reduce((s, v) => s + (v - mean) ** 2, 0);
  }, 0);
}

/** Every way to cut sorted values into k non-empty runs: the brute-force referee for Jenks. */
function bestPartitionByBruteForce(sorted: number[], k: number): { cost: number; starts: number[] } {
  let best = { cost: Infinity, starts: [] as number[] };
  const n = sorted.length;
  const choose = (from: number, left: number, starts: number[]) => {
    if (left === 0) {
      const bounds = [...starts, n];
      const classes = starts.map((s, i) => sorted.slice(s, bounds[i + 1]));
      const cost = sdcm(classes);
      if (cost < best.cost - 1e-9) best = { cost, starts: [...starts] };
      return;
    }
    for (let s = from; s <= n - left; s++) choose(s + 1, left - 1, [...starts, s]);
  };
  choose(1, k - 1, [0]);
  return best;
}

describe('classBreaks', () => {
  it('equal interval splits the range evenly and ends exactly at min and max', () => {
    assert.deepEqual(classBreaks([0, 3, 7, 10], 'equal_interval', 5), [0, 2, 4, 6, 8, 10]);
    const b = classBreaks([248, 21588], 'equal_interval', 3);
    assert.equal(b[0], 248);
    assert.equal(b[3], 21588);
    assert.ok(Math.abs(b[1]! - (248 + 21340 / 3)) < 1e-9);
  });

  it('quantile breaks are the interpolated quantiles (R type 7): equal counts for distinct values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    const b = classBreaks(values, 'quantile', 4);
    // numpy.quantile([1..100], [.25,.5,.75]) = 25.75, 50.5, 75.25
    assert.deepEqual(b, [1, 25.75, 50.5, 75.25, 100]);
    assert.deepEqual(classCounts(values, b), [25, 25, 25, 25]);
    assert.equal(quantile([3, 1, 2].sort(), 0.5), 2);
  });

  it('quantiles over many equal values collapse to fewer, strictly ascending classes', () => {
    const values = [0, 0, 0, 0, 0, 0, 0, 1, 2, 3];
    const b = classBreaks(values, 'quantile', 5);
    for (let i = 1; i < b.length; i++) assert.ok(b[i]! > b[i - 1]!, `${b}`);
    assert.ok(b.length - 1 < 5);
    assert.equal(
      classCounts(values, b).reduce((s, n) => s + n, 0),
      values.length,
    );
  });

  it('a constant field is one class', () => {
    assert.deepEqual(classBreaks([7, 7, 7], 'jenks', 4), [7, 7]);
    assert.deepEqual(classCounts([7, 7, 7], [7, 7]), [3]);
    assert.deepEqual(classBreaks([], 'quantile', 4), []);
  });

  it('Jenks finds the optimal partition of small data sets (checked by brute force)', () => {
    const sets = [
      [1, 2, 4, 5, 7, 9, 10, 20],
      [0.3, 0.5, 1.1, 1.2, 1.9, 4.4, 4.5, 4.8, 9.7, 9.9, 12.0, 30.2],
      [2, 2, 3, 10, 10, 11, 11, 25, 26, 40, 41, 90],
      // NC counties, BIR74 of the 12 smallest (nc.gpkg): real, skewed
      [248, 286, 419, 487, 542, 556, 567, 587, 661, 677, 751, 769],
    ];
    for (const values of sets) {
      for (const k of [2, 3, 4]) {
        const expected = bestPartitionByBruteForce(values, k);
        const breaks = jenksBreaks(values, k);
        // The classes the breaks make (by the map's rule) must cost as little as the best partition
        // (ties exist: [1,2,4,5,7,9,10,20] in 4 classes has two optimal partitions).
        assert.equal(breaks.length, k + 1);
        const counts = classCounts(values, breaks);
        const bounds = [0, ...counts.map((_, i) => counts.slice(0, i + 1).reduce((s, n) => s + n, 0))];
        const classes = counts.map((_, i) => values.slice(bounds[i], bounds[i + 1]));
        assert.ok(Math.abs(sdcm(classes) - expected.cost) < 1e-6, `same cost for k=${k}`);
      }
    }
  });

  it('Jenks separates well-separated clusters exactly', () => {
    const values = [1, 1.1, 1.2, 5, 5.1, 5.2, 9, 9.1, 9.2].sort((a, b) => a - b);
    assert.deepEqual(jenksBreaks(values, 3), [1, 5, 9, 9.2]);
  });

  it('Jenks on many values runs on an even sample that keeps min and max', () => {
    const values = Array.from({ length: 20000 }, (_, i) => Math.sqrt(i));
    const sample = evenSample(values, JENKS_SAMPLE);
    assert.equal(sample.length, JENKS_SAMPLE);
    assert.equal(sample[0], values[0]);
    assert.equal(sample.at(-1), values.at(-1));
    const started = Date.now();
    const b = classBreaks(values, 'jenks', 6);
    assert.ok(Date.now() - started < 3000, 'fast enough for a prepare step');
    assert.equal(b.length, 7);
    assert.equal(b[0], 0);
    assert.equal(b[6], values.at(-1));
  });

  it('classIndex follows MapLibre step: lower edge inclusive, last class takes the max', () => {
    const b = [0, 10, 20, 30];
    assert.equal(classIndex(0, b), 0);
    assert.equal(classIndex(9.99, b), 0);
    assert.equal(classIndex(10, b), 1);
    assert.equal(classIndex(30, b), 2);
    assert.equal(classIndex(-5, b), 0);
    assert.deepEqual(classCounts([0, 5, 10, 15, 20, 30], b), [2, 2, 2]);
  });
});

import { z } from 'zod';

/**
 * Class breaks for graduated and bivariate maps. Pure: the worker reads a field's values and
 * calls these; tests check them against independent computations.
 *
 * Breaks are `k + 1` ascending edges `[min, b1, …, b(k-1), max]`. A value belongs to class i
 * when `b(i) ≤ v < b(i+1)`, the last class also taking `max` — exactly MapLibre's `step`
 * expression, so the map, the legend and the counts agree.
 */
export const ClassMethod = z.enum(['equal_interval', 'quantile', 'jenks']);
export type ClassMethod = z.infer<typeof ClassMethod>;

/** Jenks is O(k·n²): above this many values it runs on an even sample of the sorted values. */
export const JENKS_SAMPLE = 3000;

/** Breaks for `k` classes of ascending `sorted` values; fewer classes come back when the data has fewer distinct values. */
export function classBreaks(sorted: readonly number[], method: ClassMethod, k: number): number[] {
  const n = sorted.length;
  if (n === 0) return [];
  const min = sorted[0]!;
  const max = sorted[n - 1]!;
  if (min === max || k <= 1) return [min, max];
  let edges: number[];
  if (method === 'equal_interval') edges = equalInterval(min, max, k);
  else if (method === 'quantile') edges = quantileBreaks(sorted, k);
  else edges = jenksBreaks(sorted, k);
  return strictlyAscending(edges);
}

export function equalInterval(min: number, max: number, k: number): number[] {
  const step = (max - min) / k;
  return Array.from({ length: k + 1 }, (_, i) => (i === k ? max : min + i * step));
}

/** The p-quantile of sorted values, interpolated between order statistics (R's type 7, numpy's default). */
export function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function quantileBreaks(sorted: readonly number[], k: number): number[] {
  return Array.from({ length: k + 1 }, (_, i) => (i === 0 ? sorted[0]! : i === k ? sorted[sorted.length - 1]! : quantile(sorted, i / k)));
}

/**
 * Jenks natural breaks by Fisher's exact dynamic programme: the partition of the sorted values
 * into k contiguous classes with the least total within-class sum of squared deviations.
 * Each inner break is the lowest value of its class.
 */
export function jenksBreaks(sortedAll: readonly number[], k: number): number[] {
  const sorted = sortedAll.length > JENKS_SAMPLE ? evenSample(sortedAll, JENKS_SAMPLE) : sortedAll;
  const n = sorted.length;
  const classes = Math.min(k, n);
  const starts = jenksClassStarts(sorted, classes);
  return [sorted[0]!, ...starts.slice(1).map((s) => sorted[s]!), sorted[n - 1]!];
}

/** Start index of each class in the optimal partition of `sorted` into `k` classes. */
export function jenksClassStarts(sorted: readonly number[], k: number): number[] {
  const n = sorted.length;
  // Prefix sums of x and x² (shifted to the mean for numerical stability): cost(i, j) in O(1).
  const mean = sorted.reduce((s, v) => s + v, 0) / n;
  const s1 = new Float64Array(n + 1);
  const s2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const v = sorted[i]! - mean;
    s1[i + 1] = s1[i]! + v;
    s2[i + 1] = s2[i]! + v * v;
  }
  /** Sum of squared deviations of sorted[i..j] inclusive. */
  const cost = (i: number, j: number) => {
    const m = j - i + 1;
    const a = s1[j + 1]! - s1[i]!;
    return Math.max(0, s2[j + 1]! - s2[i]! - (a * a) / m);
  };
  // best[c][j]: least cost of values 0..j in c+1 classes; from[c][j]: where the last class starts.
  const best: Float64Array[] = [];
  const from: Int32Array[] = [];
  best.push(Float64Array.from({ length: n }, (_, j) => cost(0, j)));
  from.push(new Int32Array(n));
  for (let c = 1; c < k; c++) {
    const prev = best[c - 1]!;
    const row = new Float64Array(n).fill(Infinity);
    const arg = new Int32Array(n);
    for (let j = c; j < n; j++) {
      let bestCost = Infinity;
      let bestStart = c;
      for (let i = c; i <= j; i++) {
        const total = prev[i - 1]! + cost(i, j);
        if (total < bestCost) {
          bestCost = total;
          bestStart = i;
        }
      }
      row[j] = bestCost;
      arg[j] = bestStart;
    }
    best.push(row);
    from.push(arg);
  }
  const starts = new Array<number>(k);
  let end = n - 1;
  for (let c = k - 1; c >= 0; c--) {
    const start = c === 0 ? 0 : from[c]![end]!;
    starts[c] = start;
    end = start - 1;
  }
  return starts;
}

/** `m` values picked evenly from sorted values, always keeping the first and the last. */
export function evenSample(sorted: readonly number[], m: number): number[] {
  const n = sorted.length;
  return Array.from({ length: m }, (_, i) => sorted[Math.round((i * (n - 1)) / (m - 1))]!);
}

function strictlyAscending(edges: number[]): number[] {
  const out: number[] = [];
  for (const e of edges) if (out.length === 0 || e > out[out.length - 1]!) out.push(e);
  // A run of equal values at the top can swallow the max edge: keep at least [min, max].
  if (out.length === 1) out.push(out[0]!);
  return out;
}

/** How many values fall in each class, with the same rule as the map (`step`). */
export function classCounts(values: readonly number[], breaks: readonly number[]): number[] {
  const k = Math.max(1, breaks.length - 1);
  const counts = new Array<number>(k).fill(0);
  for (const v of values) {
    const c = classIndex(v, breaks);
    counts[c] = counts[c]! + 1;
  }
  return counts;
}

/** Class of `v`: the last inner break it reaches. Below the first break it is class 0, above the last the last class. */
export function classIndex(v: number, breaks: readonly number[]): number {
  const k = Math.max(1, breaks.length - 1);
  let c = 0;
  for (let i = 1; i < k; i++) if (v >= breaks[i]!) c = i;
  return c;
}

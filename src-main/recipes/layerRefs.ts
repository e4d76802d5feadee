import { findAlgorithm } from '../../src-shared/processing/catalogue.js';

/** Where in a call's arguments a layer is named: a path of keys and array indexes. */
export type ArgPath = readonly (string | number)[];

/** Top-level parameters that name a project layer (id or exact name) in the built-in tools. */
const LAYER_KEYS = ['layer', 'input', 'overlay'] as const;

/**
 * The places in `args` that name a layer: the tools' declared layer parameters and, for
 * `processing.run`, the algorithm's own `layerParams` inside `params` (one layer or a list).
 * Only string values count: a key of another type is something else (a nested object).
 */
export function layerRefPaths(toolId: string, args: Record<string, unknown>): ArgPath[] {
  const paths: ArgPath[] = [];
  if (toolId === 'processing.run') {
    const spec = typeof args.algorithm === 'string' ? findAlgorithm(args.algorithm) : undefined;
    const params = args.params;
    if (!spec || !params || typeof params !== 'object') return paths;
    for (const key of spec.layerParams) {
      const value = (params as Record<string, unknown>)[key];
      if (typeof value === 'string') paths.push(['params', key]);
      else if (Array.isArray(value))
        value.forEach((item, i) => {
          if (typeof item === 'string') paths.push(['params', key, i]);
        });
    }
    return paths;
  }
  for (const key of LAYER_KEYS) if (typeof args[key] === 'string') paths.push([key]);
  return paths;
}

export function getAt(value: unknown, path: ArgPath): unknown {
  let cur: unknown = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

/** A copy of `value` with `replacement` at `path` (the path exists: it came from layerRefPaths). */
export function setAt(value: unknown, path: ArgPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = setAt(copy[head as number], rest, replacement);
    return copy;
  }
  const obj = value as Record<string, unknown>;
  return { ...obj, [head as string]: setAt(obj[head as string], rest, replacement) };
}

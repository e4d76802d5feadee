import type { Feature, LayerFeatures } from 'gdal-async';
import { throwIfCancelled } from '../errors.js';

/** A JSON value for an OGR field value: dates as ISO text, 64-bit integers as numbers or text. */
export function jsonFieldValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(jsonFieldValue);
  if (typeof value === 'object') {
    const d = value as { year?: number; month?: number; day?: number; hour?: number; minute?: number; second?: number };
    if (typeof d.year === 'number') {
      const pad = (n: number | undefined, w = 2) => String(Math.trunc(n ?? 0)).padStart(w, '0');
      const date = `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
      if (d.hour === undefined && d.minute === undefined && d.second === undefined) return date;
      return `${date}T${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}`;
    }
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
  return String(value);
}

/** The feature's attributes (all, or the named subset) as a plain JSON object. */
export function featureProperties(feature: Feature, fields: readonly string[] | null): Record<string, unknown> {
  const all = feature.fields.toObject() as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of fields ?? Object.keys(all)) out[name] = jsonFieldValue(all[name]);
  return out;
}

/** Rounds every coordinate of a GeoJSON geometry (shorter text, same map). */
export function roundCoordinates(value: unknown, digits: number): unknown {
  const f = 10 ** digits;
  if (typeof value === 'number') return Math.round(value * f) / f;
  if (Array.isArray(value)) return value.map((v) => roundCoordinates(v, digits));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'type' ? v : roundCoordinates(v, digits);
    return out;
  }
  return value;
}

/** Why a capped list stops early: the limit or the size cap. */
export type TruncatedBy = 'limit' | 'size' | null;

/**
 * The features as items (`toItem`, JSON-able), at most `limit` of them and at most `maxChars`
 * characters of their JSON text (the first item always), with why the list stopped early.
 */
export async function readCapped<T>(
  features: LayerFeatures,
  toItem: (feature: Feature) => T,
  limits: { limit: number; maxChars: number },
  signal: AbortSignal,
): Promise<{ items: T[]; truncatedBy: TruncatedBy }> {
  const items: T[] = [];
  let chars = 0;
  let truncatedBy: TruncatedBy = null;
  for (let f = await features.firstAsync(); f; f = await features.nextAsync()) {
    if (items.length >= limits.limit) {
      truncatedBy = 'limit';
      break;
    }
    const item = toItem(f);
    const size = JSON.stringify(item).length;
    if (chars + size > limits.maxChars && items.length > 0) {
      truncatedBy = 'size';
      break;
    }
    chars += size;
    items.push(item);
    if (items.length % 200 === 0) throwIfCancelled(signal);
  }
  return { items, truncatedBy };
}

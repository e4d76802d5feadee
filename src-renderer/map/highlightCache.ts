import { MAX_FEATURES_BY_ID, type FeatureById } from '../../src-shared/bridge/attributeContract.js';
import type { BBox } from '../../src-shared/domain/layer.js';

/** Bounding box of a GeoJSON geometry's coordinates (any type, collections included), or null. */
export function geometryBBox(geometry: unknown): BBox | null {
  let box: BBox | null = null;
  const visit = (value: unknown): void => {
    if (!Array.isArray(value)) return;
    if (typeof value[0] === 'number' && typeof value[1] === 'number') {
      const [x, y] = value as [number, number];
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
      return;
    }
    for (const item of value) visit(item);
  };
  const walk = (g: unknown): void => {
    if (!g || typeof g !== 'object') return;
    const { coordinates, geometries } = g as { coordinates?: unknown; geometries?: unknown };
    visit(coordinates);
    if (Array.isArray(geometries)) for (const child of geometries) walk(child);
  };
  walk(geometry);
  return box;
}

function union(a: BBox | null, b: BBox | null): BBox | null {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/**
 * The selection's features as the highlight draws them. Features already fetched are kept, so a
 * ctrl-click on one row of a large selection fetches one feature, not all of them again.
 * Only the first MAX_FEATURES_BY_ID selected are drawn (what `layers/features` returns at most).
 */
export class HighlightCache {
  private layerId: string | null = null;
  private readonly features = new Map<number, { feature: FeatureById; bbox: BBox | null }>();

  /** The fids to draw for this selection, and those still to fetch. Another layer starts afresh. */
  plan(layerId: string, fids: Iterable<number>): { wanted: number[]; missing: number[]; capped: boolean } {
    if (layerId !== this.layerId) {
      this.layerId = layerId;
      this.features.clear();
    }
    const wanted: number[] = [];
    let capped = false;
    for (const fid of fids) {
      if (wanted.length === MAX_FEATURES_BY_ID) {
        capped = true;
        break;
      }
      wanted.push(fid);
    }
    return { wanted, missing: wanted.filter((fid) => !this.features.has(fid)), capped };
  }

  /** Adds fetched features of `layerId` (ignored if the cache has moved to another layer). */
  add(layerId: string, features: readonly FeatureById[]): void {
    if (layerId !== this.layerId) return;
    for (const feature of features) this.features.set(feature.id, { feature, bbox: geometryBBox(feature.geometry) });
  }

  /** The features of `wanted` (forgetting all others) and their extent. */
  resolve(wanted: readonly number[]): { features: FeatureById[]; bbox: BBox | null } {
    const keep = new Set(wanted);
    for (const fid of [...this.features.keys()]) if (!keep.has(fid)) this.features.delete(fid);
    const features: FeatureById[] = [];
    let bbox: BBox | null = null;
    for (const fid of wanted) {
      const entry = this.features.get(fid);
      if (!entry) continue;
      features.push(entry.feature);
      bbox = union(bbox, entry.bbox);
    }
    return { features, bbox };
  }

  reset(): void {
    this.layerId = null;
    this.features.clear();
  }
}

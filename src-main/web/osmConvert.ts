import osmtogeojson from 'osmtogeojson';
import type { OverpassAnswer } from './osmQuery.js';

/**
 * An Overpass answer as GeoJSON a GeoPackage can hold: osmtogeojson builds the geometries
 * (ways to lines or polygons, multipolygon relations to polygons); each feature keeps
 * `osm_type`, `osm_id` and its tags as plain string fields. Tag keys that differ only in case
 * (one column in SQLite) and keys past MAX_TAG_FIELDS (the rarest) go into `other_tags` as JSON.
 */

export const MAX_TAG_FIELDS = 300;
const RESERVED = new Set(['osm_type', 'osm_id', 'other_tags', 'fid', 'geom']);

export interface OsmGeoJson {
  type: 'FeatureCollection';
  features: { type: 'Feature'; properties: Record<string, string | number | null>; geometry: unknown }[];
}

export interface OsmConversion {
  geojson: OsmGeoJson;
  counts: { points: number; lines: number; polygons: number; other: number };
  /** Tag keys moved into `other_tags`. */
  folded: number;
}

export function overpassToGeoJson(answer: OverpassAnswer): OsmConversion {
  const converted = osmtogeojson(answer, { flatProperties: true });
  const keyUse = new Map<string, number>();
  const tagsOf = new Map<number, Record<string, string>>();
  const kept = converted.features.filter((f) => f.geometry);
  kept.forEach((feature, i) => {
    const tags: Record<string, string> = {};
    for (const [key, value] of Object.entries(feature.properties)) {
      if (key === 'id' || key === 'meta' || key === 'relations' || key === 'tainted' || typeof value !== 'string') continue;
      tags[key] = value;
      keyUse.set(key, (keyUse.get(key) ?? 0) + 1);
    }
    tagsOf.set(i, tags);
  });
  // The most used keys become fields; a key whose lower case is already taken, or a reserved name, does not.
  const fields = new Set<string>();
  const lowered = new Set<string>(RESERVED);
  for (const [key] of [...keyUse].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
    if (fields.size >= MAX_TAG_FIELDS || lowered.has(key.toLowerCase())) continue;
    fields.add(key);
    lowered.add(key.toLowerCase());
  }
  const counts = { points: 0, lines: 0, polygons: 0, other: 0 };
  const features = kept.map((feature, i) => {
    const [osmType, osmId] = String(feature.properties.id ?? feature.id ?? '').split('/');
    const properties: Record<string, string | number | null> = { osm_type: osmType ?? null, osm_id: Number(osmId) || null };
    const other: Record<string, string> = {};
    for (const [key, value] of Object.entries(tagsOf.get(i)!)) {
      if (fields.has(key)) properties[key] = value;
      else other[key] = value;
    }
    properties.other_tags = Object.keys(other).length ? JSON.stringify(other) : null;
    const type = feature.geometry!.type;
    if (type === 'Point' || type === 'MultiPoint') counts.points++;
    else if (type === 'LineString' || type === 'MultiLineString') counts.lines++;
    else if (type === 'Polygon' || type === 'MultiPolygon') counts.polygons++;
    else counts.other++;
    return { type: 'Feature' as const, properties, geometry: feature.geometry };
  });
  return { geojson: { type: 'FeatureCollection', features }, counts, folded: keyUse.size - fields.size };
}

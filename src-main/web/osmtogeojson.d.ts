/** The part of osmtogeojson (no types of its own) that osmDownload uses. */
declare module 'osmtogeojson' {
  interface OsmToGeoJsonOptions {
    /** Tags and a concise id (`type/id`) as plain properties instead of nested objects. */
    flatProperties?: boolean;
  }
  interface OsmFeature {
    type: 'Feature';
    id?: string | number;
    properties: Record<string, unknown>;
    geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  }
  function osmtogeojson(data: unknown, options?: OsmToGeoJsonOptions): { type: 'FeatureCollection'; features: OsmFeature[] };
  export default osmtogeojson;
}

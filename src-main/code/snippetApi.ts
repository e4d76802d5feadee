/**
 * The API a `code.run_js` snippet sees, as TypeScript declarations: the model reads this (in
 * the tool's description) and src-main/code-host/snippetHost.ts implements it. Keep the two
 * in step (codeRunner.test.ts exercises every member).
 */
export const SNIPPET_API_DTS = `// Globals of a snippet (an async function body: top-level await and return work; no require/import, no fs, no network).
type SRS = { epsg: number | null; wkt: string } | null;
type Feature = { fid: number; properties: Record<string, unknown>; geometry: GeoJSON.Geometry | null };
interface VectorLayer { kind: 'vector'; name: string; fields: { name: string; type: string }[]; featureCount: number;
  extent: [minX: number, minY: number, maxX: number, maxY: number] | null; srs: SRS; geometryType: string;
  features(opts?: { where?: string /* SQL condition on fields, e.g. "POP > 1000 AND NAME LIKE 'A%'" */; limit?: number }): AsyncIterable<Feature> /* loops may nest */ }
interface RasterLayer { kind: 'raster'; name: string; width: number; height: number; bandCount: number;
  geoTransform: number[] | null; srs: SRS; nodata: (number | null)[]; dataTypes: string[];
  read(band: number, window?: { x: number; y: number; width: number; height: number }): Promise<number[]> /* row-major, at most 512² pixels a call: read in tiles */ }
declare const layers: { list(): Promise<{ name: string; kind: string }[]>; open(name: string): Promise<VectorLayer | RasterLayer> };
// Creates <name>.gpkg / <name>.tif in the run's folder; it is added to the map when the snippet ends without error.
declare function output(name: string, kind: 'gpkg', spec: { geometryType?: 'Point'|'LineString'|'Polygon'|'MultiPoint'|'MultiLineString'|'MultiPolygon'|'Unknown';
  srs?: number | string /* EPSG code or WKT */; fields?: { name: string; type: 'integer'|'real'|'string'|'date' }[] }):
  Promise<{ name: string; addFeatures(f: { geometry: GeoJSON.Geometry | null; properties?: Record<string, unknown> }[]): Promise<number> }>;
declare function output(name: string, kind: 'tif', spec: { width: number; height: number; bands?: number;
  dataType?: 'Byte'|'Int16'|'UInt16'|'Int32'|'UInt32'|'Float32'|'Float64'; geoTransform?: number[]; srs?: number | string; nodata?: number | null }):
  Promise<{ name: string; write(band: number, window: { x: number; y: number; width: number; height: number } | undefined, values: number[]): Promise<void> }>;
// Geometry operations (GEOS through GDAL), units of the geometry's CRS.
declare const geo: { buffer(g, distance: number, segments?: number): Promise<Geometry>; area(g): Promise<number>; length(g): Promise<number>;
  centroid(g): Promise<Geometry>; simplify(g, tolerance: number): Promise<Geometry>; intersects(a, b): Promise<boolean>;
  intersection(a, b): Promise<Geometry | null>; union(a, b): Promise<Geometry>; transform(g, from: number | string, to: number | string): Promise<Geometry> };
declare function print(...values: unknown[]): void; // also console.log; the first 2,000 characters come back to you
`;

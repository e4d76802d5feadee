/**
 * Helpers for the worker's tests: fixture paths, the real worker process, GDAL's command-line
 * tools as an independent referee, temp folders, and a small PNG decoder that does not go
 * through GDAL.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { forkLauncher } from '../worker-host/forkLauncher.js';
import { GisWorkerClient, type GisWorkerClientOptions, WorkerRequestError } from '../worker-host/GisWorkerClient.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = path.resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'gis');
/** Small real files checked in with the app's tests (sources in e2e/fixtures/gis/SOURCES.md). */
export const E2E_FIXTURES = path.join(REPO_ROOT, 'e2e', 'fixtures', 'gis');
/** The worker's entry, run from source under tsx the way the web host forks it. */
export const WORKER_ENTRY = path.join(REPO_ROOT, 'src-main', 'gis-worker', 'workerMain.ts');

function hasCli(): boolean {
  try {
    execFileSync('ogrinfo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A reason to skip (node:test prints it), or false when fixtures and GDAL's tools are here. */
export const skipReason: string | false = !existsSync(FIXTURES)
  ? `GIS fixtures not found at ${FIXTURES}`
  : !hasCli()
    ? 'GDAL command-line tools (gdal-bin) not installed'
    : false;
if (skipReason) console.log(`# skipping GIS worker tests: ${skipReason}`);

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

export function e2eFixture(name: string): string {
  return path.join(E2E_FIXTURES, name);
}

/** A client of the real worker process, forked as the web host does; the process starts at the first request. */
export function startWorker(options?: GisWorkerClientOptions): GisWorkerClient {
  return new GisWorkerClient(forkLauncher(WORKER_ENTRY, ['--import', 'tsx']), options);
}

/** Runs a GDAL tool; PAM off so nothing is written beside the fixtures. */
export function gdalCli(tool: string, args: string[]): string {
  return execFileSync(tool, args, {
    encoding: 'utf8',
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** A web-mercator tile address. */
export interface TileXyz {
  z: number;
  x: number;
  y: number;
}

const MERCATOR_HALF = 20037508.342789244;

/**
 * The tile holding a lon/lat at a zoom: the usual slippy-map formula, written out here rather
 * than borrowed from the code under test.
 */
export function tileAt(lon: number, lat: number, z: number): TileXyz {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n) };
}

/** A tile's box in EPSG:3857 metres: [minX, minY, maxX, maxY]. */
export function tileBox({ z, x, y }: TileXyz): [number, number, number, number] {
  const size = (2 * MERCATOR_HALF) / 2 ** z;
  return [-MERCATOR_HALF + x * size, MERCATOR_HALF - (y + 1) * size, -MERCATOR_HALF + (x + 1) * size, MERCATOR_HALF - y * size];
}

/**
 * gdalwarp's own rendering of `file` onto a box in EPSG:3857 at a size, as the referee of drawn
 * tiles: Float64 values, with an alpha band after the data bands marking the valid pixels.
 */
export function warpOntoBox(file: string, out: string, box: readonly number[], width: number, height: number, resampling: string): void {
  gdalCli('gdalwarp', [
    '-q',
    '-overwrite',
    '-t_srs',
    'EPSG:3857',
    '-te',
    ...box.map(String),
    '-ts',
    String(width),
    String(height),
    '-r',
    resampling,
    '-ot',
    'Float64',
    '-dstalpha',
    file,
    out,
  ]);
}

export interface OgrSummary {
  featureCount: number;
  extent: [number, number, number, number] | null;
  geometry: string;
}

/** `ogrinfo -so` for one layer (the first when none is named), parsed. */
export function ogrSummary(file: string, layer?: string, extraArgs: string[] = []): OgrSummary {
  const out = gdalCli('ogrinfo', ['-ro', '-so', ...extraArgs, file, ...(layer ? [layer] : ['-al'])]);
  const count = /Feature Count: (\d+)/.exec(out);
  const ext = /Extent: \(([-\d.e+]+), ([-\d.e+]+)\) - \(([-\d.e+]+), ([-\d.e+]+)\)/.exec(out);
  const geom = /Geometry: (.+)/.exec(out);
  return {
    featureCount: count ? Number(count[1]) : NaN,
    extent: ext ? [Number(ext[1]), Number(ext[2]), Number(ext[3]), Number(ext[4])] : null,
    geometry: geom?.[1]?.trim() ?? '',
  };
}

export interface TempDir {
  dir: string;
  cleanup(): void;
}

export function makeTempDir(prefix = 'mapwright-gis-'): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The real worker and a temp folder for the describe block that calls this: the folder is made
 * now; the client is made in a `before` hook (after the block's earlier hooks, so an environment
 * they set is the worker's) and handed to `started`; `after` disposes it and removes the folder.
 */
export function workerSuite(started: (client: GisWorkerClient) => void, prefix?: string): { tmp: TempDir; out(name: string): string } {
  const tmp = makeTempDir(prefix);
  let client: GisWorkerClient | undefined;
  before(() => started((client = startWorker())));
  after(() => {
    client?.dispose();
    tmp.cleanup();
  });
  return { tmp, out: (name) => path.join(tmp.dir, name) };
}

export function assertClose(actual: number, expected: number, tolerance: number, what = 'value'): void {
  if (!(Math.abs(actual - expected) <= tolerance)) {
    throw new Error(`${what}: expected ${expected} ± ${tolerance}, got ${actual}`);
  }
}

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  channels: number;
  /** Unfiltered samples, row by row, `channels` per pixel. */
  data: Uint8Array;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** Enough of PNG for 8-bit non-interlaced grey/RGB(A) images, which is what tiles are. */
export function decodePng(bytes: Uint8Array): DecodedPng {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    throw new Error('not a PNG signature');
  }
  let pos = 8;
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colorType = 0;
  let interlace = 0;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8]!;
      colorType = body[9]!;
      interlace = body[12]!;
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
    pos += 12 + len;
  }
  const channels = CHANNELS[colorType];
  if (!channels || bitDepth !== 8 || interlace !== 0) throw new Error(`unsupported PNG: type ${colorType}, depth ${bitDepth}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const data = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? data[y * stride + i - channels]! : 0;
      const b = y > 0 ? data[(y - 1) * stride + i]! : 0;
      const c = i >= channels && y > 0 ? data[(y - 1) * stride + i - channels]! : 0;
      let v = line[i]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      data[y * stride + i] = v & 0xff;
    }
  }
  return { width, height, bitDepth, colorType, channels, data };
}

/**
 * Whether `pid` is a live process. A dead orphan stays a zombie until whoever adopted it (init
 * or a subreaper) reaps it, and a zombie still answers `kill(pid, 0)`; on Linux its state in
 * /proc tells it apart. Reaping is that adopter's business, not the app's.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Asserts a worker request failed as bad input (the data's fault) with a message matching `pattern`. */
export async function rejectsAsBadInput(request: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(request, (err: unknown) => {
    assert.ok(err instanceof WorkerRequestError, String(err));
    assert.equal(err.code, 'bad_input');
    assert.match(err.message, pattern);
    return true;
  });
}

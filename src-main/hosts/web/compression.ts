import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this go as they are: the headers would eat the gain. */
const MIN_BYTES = 1024;
/** Large bodies (basemap GeoJSON, glyphs, a layer re-fetched) keep their compressed form. */
const MEMO_MIN_BYTES = 64 * 1024;
const MEMO_MAX_BYTES = 32 * 1024 * 1024;
/** Beyond this a body is compressed each time rather than hashed and kept. */
const MEMO_MAX_BODY = 16 * 1024 * 1024;

/**
 * Text and protobuf compress well; images (PNG, JPEG, WebP) are compressed already and are
 * never sent through here again.
 */
export function isCompressible(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/geo+json' ||
    type === 'application/javascript' ||
    type === 'application/x-protobuf' ||
    type === 'application/vnd.mapbox-vector-tile' ||
    type === 'image/svg+xml'
  );
}

/** The encoding to answer an `Accept-Encoding` with: brotli if accepted, else gzip, else none. */
export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) value = Number(m[1]);
    }
    q.set(name.trim().toLowerCase(), Number.isFinite(value) ? value : 0);
  }
  const star = q.get('*');
  const br = q.get('br') ?? star ?? 0;
  const gz = q.get('gzip') ?? star ?? 0;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

/**
 * Compresses with `encoding`. Bodies made per request are compressed fast — the web host
 * answers on loopback, where time matters more than bytes: brotli 4 (gzip 6's ratio in half
 * its time), brotli 2 / gzip 1 past 4 MiB. The page's static files are compressed once per
 * build, so they get brotli 9 / gzip 9.
 */
export async function compress(body: Uint8Array, encoding: Encoding, quality: 'fast' | 'best' = 'fast'): Promise<Buffer> {
  const big = body.byteLength > 4 * 1024 * 1024;
  if (encoding === 'gzip') return gzipAsync(body, { level: quality === 'best' ? 9 : big ? 1 : 3 });
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality === 'best' ? 9 : big ? 2 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  });
}

/**
 * A data response's body encoded for the client, or null to send it as it is (not
 * compressible, too small, or not accepted). Large bodies are remembered by content hash
 * in a small LRU, so the basemap is compressed once, not on every page load.
 */
export class BodyCompressor {
  private readonly memo = new Map<string, Promise<Buffer>>();
  private readonly sizes = new Map<string, number>();
  private memoBytes = 0;

  async encode(body: Uint8Array | string, contentType: string, encoding: Encoding | null): Promise<Buffer | null> {
    if (!encoding || !isCompressible(contentType)) return null;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (bytes.byteLength < MIN_BYTES) return null;
    if (bytes.byteLength < MEMO_MIN_BYTES || bytes.byteLength > MEMO_MAX_BODY) return compress(bytes, encoding);
    const key = `${encoding}:${createHash('sha1').update(bytes).digest('hex')}`;
    const hit = this.memo.get(key);
    if (hit) {
      this.memo.delete(key);
      this.memo.set(key, hit);
      return hit;
    }
    const fresh = compress(bytes, encoding);
    this.memo.set(key, fresh);
    fresh.then(
      (out) => this.account(key, out.byteLength),
      () => this.memo.delete(key),
    );
    return fresh;
  }

  private account(key: string, size: number): void {
    if (!this.memo.has(key)) return;
    this.sizes.set(key, size);
    this.memoBytes += size;
    for (const k of this.memo.keys()) {
      if (this.memoBytes <= MEMO_MAX_BYTES) break;
      if (!this.sizes.has(k)) continue; // still compressing
      this.memoBytes -= this.sizes.get(k)!;
      this.sizes.delete(k);
      this.memo.delete(k);
    }
  }
}

export interface StaticFile {
  body: Buffer;
  etag: string;
  /** The body in an encoding, compressed once per file version; null when not worth it. */
  encoded(encoding: Encoding | null): Promise<Buffer | null>;
}

/**
 * The page's build output (app.js, app.css, their maps), read and compressed once per version
 * of each file (size + mtime), so a rebuild while the host runs is still picked up.
 */
export class StaticFiles {
  private readonly files = new Map<string, { stamp: string; file: Promise<StaticFile> }>();

  constructor(private readonly contentType: (path: string) => string) {}

  async get(path: string): Promise<StaticFile> {
    const st = await stat(path);
    const stamp = `${st.size}:${st.mtimeMs}`;
    const known = this.files.get(path);
    if (known && known.stamp === stamp) return known.file;
    const file = this.load(path);
    this.files.set(path, { stamp, file });
    file.catch(() => this.files.delete(path));
    return file;
  }

  /** Reads and compresses files ahead of the first request (errors are left for that request). */
  warm(paths: readonly string[]): void {
    for (const p of paths) {
      void this.get(p)
        .then((f) => Promise.all([f.encoded('br'), f.encoded('gzip')]))
        .catch(() => undefined);
    }
  }

  private async load(path: string): Promise<StaticFile> {
    const body = await readFile(path);
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const compressible = isCompressible(this.contentType(path)) && body.byteLength >= MIN_BYTES;
    const encodings = new Map<Encoding, Promise<Buffer>>();
    return {
      body,
      etag,
      encoded(encoding) {
        if (!encoding || !compressible) return Promise.resolve(null);
        let p = encodings.get(encoding);
        if (!p) {
          p = compress(body, encoding, body.byteLength < 4 * 1024 * 1024 ? 'best' : 'fast');
          encodings.set(encoding, p);
        }
        return p;
      },
    };
  }
}

import { randomBytes } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** A dropped file larger than this is refused: the upload is a copy on the same disk. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
const MAX_NAME = 180;

/** A refusal with the HTTP status the web host answers with. */
export class UploadError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A file name from the browser made safe to write: no folders, no leading dot, no control or
 * shell-awkward characters. Null when nothing is left.
 */
export function sanitiseFileName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, MAX_NAME);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : null;
}

/**
 * Files dropped on the map in the web host (issue #15), where the browser hands over bytes, not
 * paths. Each drop gets its own folder `<outputs>/imports/<unique>/`, so a Shapefile's
 * .shp/.shx/.dbf/.prj sent one by one land together: the first upload opens a batch and the
 * rest name it. Batch ids are main's own, so an upload cannot write anywhere else.
 */
export class ImportUploads {
  private readonly batches = new Map<string, string>();

  constructor(
    private readonly outputsDir: () => string,
    private readonly maxBytes = MAX_UPLOAD_BYTES,
  ) {}

  /** Stores one file; returns its batch and the absolute path written. */
  async store(req: {
    batch?: string | undefined;
    name: string;
    body: AsyncIterable<Uint8Array>;
  }): Promise<{ batch: string; path: string }> {
    const name = sanitiseFileName(req.name);
    if (!name) throw new UploadError(400, 'The file has no usable name.');
    let batch = req.batch;
    let dir: string;
    if (batch) {
      const known = this.batches.get(batch);
      if (!known) throw new UploadError(404, 'Unknown upload batch.');
      dir = known;
    } else {
      batch = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      dir = join(this.outputsDir(), 'imports', batch);
      await mkdir(dir, { recursive: true });
      this.batches.set(batch, dir);
    }
    const path = join(dir, name);
    // 'wx': two files of one drop with the same cleaned name do not overwrite each other.
    const file = await open(path, 'wx').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'EEXIST' ? new UploadError(409, `${name} was already uploaded in this drop.`) : err;
    });
    let written = 0;
    try {
      for await (const chunk of req.body) {
        written += chunk.byteLength;
        if (written > this.maxBytes)
          throw new UploadError(
            413,
            `${name} is larger than ${Math.round(this.maxBytes / 1024 / 1024)} MB; load it from its folder instead.`,
          );
        await file.write(chunk);
      }
      await file.close();
    } catch (err) {
      await file.close().catch(() => undefined);
      await rm(path, { force: true });
      throw err;
    }
    return { batch, path };
  }
}

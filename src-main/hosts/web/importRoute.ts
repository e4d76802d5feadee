import type { IncomingMessage } from 'node:http';
import { MAX_UPLOAD_BYTES, UploadError } from '../../files/importUploads.js';
import type { Services } from '../../composition/services.js';

/** The web host's upload path for files dropped on the map (issue #15). */
export const IMPORT_PATH = '/import';

export type ImportAnswer = { status: number; body: string };

/**
 * `POST /import?token=…&name=FILE[&batch=ID]` with the file's bytes as the body. The caller has
 * checked the token; this checks the Origin (a page of this host only), streams the body into
 * the outputs folder and answers `{batch, name, token}` as JSON, or `{error}`.
 */
export async function handleImport(
  req: IncomingMessage,
  url: URL,
  origins: ReadonlySet<string>,
  services: Pick<Services, 'importFile'>,
): Promise<ImportAnswer> {
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin)) return json(403, { error: 'Wrong origin' });
  if (!services.importFile) return json(404, { error: 'Uploads are not available here' });
  const name = url.searchParams.get('name');
  if (!name) return json(400, { error: 'Missing file name' });
  const batch = url.searchParams.get('batch') ?? undefined;
  // Said up front when the browser says the size: no need to receive 2 GB to refuse it.
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES)
    return json(413, { error: `${name} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB; load it from its folder instead.` });
  try {
    const stored = await services.importFile({ name, body: req, ...(batch ? { batch } : {}) });
    return json(200, stored);
  } catch (err) {
    // Drain nothing more: the connection is closed after a refusal (the body may be huge).
    if (err instanceof UploadError) return json(err.status, { error: err.message });
    throw err;
  }
}

function json(status: number, value: unknown): ImportAnswer {
  return { status, body: JSON.stringify(value) };
}

import { z } from 'zod';
import { i18n } from '../i18n/i18n.js';

const Stored = z.object({ batch: z.string(), name: z.string(), token: z.string() });
const Refused = z.object({ error: z.string() });

/**
 * Sends the files of one drop to the web host (`POST /import`, with the page's token), one
 * request each, the first opening a batch folder the others join — so a Shapefile's files land
 * together. Returns main's token for `main`, the file to load.
 */
export async function uploadDropped(files: readonly File[], main: File, base: { dataBase: string; dataQuery: string }): Promise<string> {
  let batch: string | null = null;
  let token: string | null = null;
  // The main file last: its sidecars are in place when it is loaded.
  for (const file of [...files.filter((f) => f !== main), main]) {
    const query = new URLSearchParams(base.dataQuery.replace(/^\?/, ''));
    query.set('name', file.name);
    if (batch) query.set('batch', batch);
    const response = await fetch(`${base.dataBase}import?${query.toString()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: file,
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok)
      throw new Error(Refused.safeParse(body).data?.error ?? i18n.t('map:uploadFailed', { name: file.name, status: response.status }));
    const stored = Stored.parse(body);
    batch = stored.batch;
    if (file === main) token = stored.token;
  }
  if (!token) throw new Error(i18n.t('map:uploadNoFile'));
  return token;
}

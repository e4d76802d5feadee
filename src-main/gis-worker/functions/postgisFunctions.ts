import { describeSource } from '../describeSource.js';
import { exportToPostgis } from '../postgisExport.js';
import { savePostgisQuery } from '../postgisSaveQuery.js';
import { writeStagedLayer } from '../postgisWriteStaged.js';
import type { WorkerFamily } from './types.js';

/** The postgis family (src-shared/worker/postgisCalls.ts). */
export const POSTGIS_FUNCTIONS: WorkerFamily<'postgis'> = {
  'postgis.export': (a, ctx) => exportToPostgis(a, ctx),
  'postgis.save_query': async (a, ctx) => {
    const saved = await savePostgisQuery(a, ctx);
    return { ...saved, info: await describeSource(saved.output, ctx.signal) };
  },
  'postgis.write_staged': async (a, ctx) => {
    const written = await writeStagedLayer(a, ctx);
    return { ...written, info: await describeSource(written.output, ctx.signal) };
  },
};

import { z } from 'zod';
import { Lineage, LineageStore } from '../domain/lineage.js';
import { workerCall } from './callSpec.js';
import { Source } from './layerCalls.js';

/**
 * Lineage (issue 17): main builds the record, the worker — the only one that opens the files —
 * stores it in a produced file and reads it back. No `writes`: a failed stamp must never make
 * main delete the output it was stamping.
 */
export const LINEAGE_CALLS = {
  /**
   * Stores `lineage` in the file at `path` (a GeoPackage table's metadata, a GeoTIFF's
   * metadata) or beside it (`<path>.lineage.json`: other formats, or `beside`); a later stamp
   * replaces an earlier one.
   */
  'lineage.write': workerCall({
    params: z.object({
      path: z.string().min(1).max(4096),
      sublayer: z.string().min(1).max(1024).nullable().default(null),
      lineage: Lineage,
      /** Keep the file's bytes as they are (a download): the sidecar, whatever the format. */
      beside: z.boolean().default(false),
    }),
    result: z.object({ stored: LineageStore, location: z.string() }),
    doing: (p) => `recording the lineage of ${p.path}`,
  }),
  /**
   * The lineage stored for a source, if any: `lineage` when it parses, else `unreadable` with
   * the reason (a damaged or foreign record is reported, never thrown).
   */
  'lineage.read': workerCall({
    params: z.object({ source: Source }),
    result: z.object({
      stored: LineageStore.nullable(),
      lineage: Lineage.nullable(),
      unreadable: z.string().nullable(),
    }),
    doing: (p) => `reading the lineage of ${p.source}`,
  }),
};

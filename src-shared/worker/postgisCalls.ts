import { z } from 'zod';
import { LayerInfo } from '../domain/layer.js';
import { PgConnectionId } from '../domain/pgConnection.js';
import { workerCall } from './callSpec.js';
import { Source } from './layerCalls.js';

/**
 * A schema or table name as PostgreSQL takes it quoted: any characters but control
 * characters, at most 63 bytes (longer names are cut silently by the server: refused instead).
 */
export const PgIdentifier = z
  .string()
  .min(1)
  .refine((s) => !/\p{Cc}/u.test(s), 'no control characters')
  .refine((s) => new TextEncoder().encode(s).length <= 63, 'at most 63 bytes');

/**
 * One column of a staged query result as OGR types it (the GDAL PostgreSQL driver's mapping,
 * without the subtypes gdal-async cannot set): `type` a gdal-async OFT name.
 */
export const StagedField = z.object({
  name: z.string().min(1),
  type: z.enum(['integer', 'integer64', 'real', 'string', 'date', 'time', 'dateTime']),
  width: z.number().int().nonnegative(),
  precision: z.number().int().nonnegative(),
});
export type StagedField = z.infer<typeof StagedField>;

/** Writing to a saved PostGIS connection (issue 16). */
export const POSTGIS_CALLS = {
  /**
   * Copies a project layer into a new table `schema.table` of a saved connection through
   * GDAL's PostgreSQL driver (geometry `geom`, key `fid`, GiST index, the source's SRID).
   * An existing table is refused unless `overwrite`, then replaced in one transaction.
   */
  'postgis.export': workerCall({
    params: z.object({
      source: Source,
      connectionId: PgConnectionId,
      schema: PgIdentifier,
      table: PgIdentifier,
      overwrite: z.boolean().default(false),
    }),
    result: z.object({ schema: z.string(), table: z.string(), featureCount: z.number().int().nonnegative() }),
    doing: (p) => `exporting ${p.source} to the PostGIS table ${p.schema}.${p.table}`,
  }),
  /**
   * The whole result of one server query (checked by checkServerQuery, run read-only) kept as
   * a new GeoPackage layer `output` (`path|layername=NAME` in the outputs folder).
   */
  'postgis.save_query': workerCall({
    params: z.object({ connectionId: PgConnectionId, sql: z.string().min(1).max(20_000), output: z.string().min(1) }),
    result: z.object({ output: z.string(), featureCount: z.number(), notes: z.array(z.string()), info: LayerInfo }),
    doing: (p) => `saving a server query of ${p.connectionId} into ${p.output}`,
    writes: (p) => p.output,
  }),
  /**
   * A push-down result copied back from the server (issue 16) written as a new GeoPackage layer
   * `output` (`path|layername=NAME` in the outputs folder). `staging` is main's temporary file:
   * one JSON array per line, `[fid, the fields' values as text or null…, geometry as base64 ISO WKB or null]`.
   * `geometryType`: PostGIS typmod name (MultiPolygon, PointZ, Geometry…), null for a table;
   * `srs`: `EPSG:n` or WKT, null when unknown.
   */
  'postgis.write_staged': workerCall({
    params: z.object({
      staging: z.string().min(1),
      output: z.string().min(1),
      fields: z.array(StagedField),
      geometryType: z.string().nullable(),
      srs: z.string().nullable(),
      featureCount: z.number().int().nonnegative(),
    }),
    result: z.object({ output: z.string(), featureCount: z.number(), info: LayerInfo }),
    doing: (p) => `writing a PostGIS result into ${p.output}`,
    writes: (p) => p.output,
  }),
};

import { z } from 'zod';
import { ToolResult } from '../tools/toolResult.js';
import { PgBrowseResult, PgConnectionDraft, PgConnectionId, PgConnectionListed, PgTestReport } from '../domain/pgConnection.js';

const ById = z.object({ id: PgConnectionId }).strict();

/**
 * PostgreSQL/PostGIS connections (issue 16). These are the person's own actions in the
 * interface: saving, testing and browsing a connection is not asked for. A password goes in
 * (to the SecretStore) and never comes back out; the renderer learns only `hasPassword`.
 */
export const postgisMethods = {
  /** The saved connections and where passwords are kept (the SecretStore's note). */
  'postgis/connections': {
    params: z.object({}).strict(),
    result: z.object({ connections: z.array(PgConnectionListed), passwordStore: z.string() }),
  },
  /**
   * Adds (no id) or replaces a connection. `password`: a string stores it, null removes it,
   * absent keeps the stored one.
   */
  'postgis/save-connection': {
    params: z.object({ connection: PgConnectionDraft, password: z.string().max(1024).nullable().optional() }).strict(),
    result: z.object({ connection: PgConnectionListed }),
  },
  'postgis/delete-connection': {
    params: ById,
    result: z.object({ deleted: z.boolean() }),
  },
  /** Connects and reports the server's and PostGIS's versions, or why not. */
  'postgis/test-connection': {
    params: ById,
    result: PgTestReport,
  },
  /** Schemas, tables and views with geometry, geography or raster columns. */
  'postgis/browse': {
    params: ById,
    result: PgBrowseResult,
  },
  /**
   * Loads a table or view of a connection as a layer (`layers.load` on
   * `postgis://<id>|layername=<schema>.<table>`, run for the person: the browse list is their
   * choice). A large table is drawn from vector tiles the server makes. Using the connection
   * from here remembers its server as an approved origin of the open project.
   */
  'postgis/load': {
    params: z
      .object({
        id: PgConnectionId,
        schema: z.string().min(1).max(63),
        table: z.string().min(1).max(63),
        /** A raster column of the table: loaded as a raster layer (the table's geometry otherwise). */
        raster: z.string().min(1).max(63).optional(),
      })
      .strict(),
    result: ToolResult,
  },
};

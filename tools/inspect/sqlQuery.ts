import { z } from 'zod';
import { databaseParam, sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { checkQuery } from '../../src-shared/sql/checkQuery.js';
import { checkServerQuery } from '../../src-shared/sql/checkServerQuery.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { projectTables } from './projectTables.js';
import { MAX_CHARS } from './queryFeatures.js';

/**
 * The SQL tools' guard (src-shared/sql/checkQuery.ts) as a tool error the model can act on:
 * one SELECT over the project's layers, allowed functions only. Returns the query to run
 * (comments removed). The worker checks again.
 */
export function requireQuery(sql: string, project: ProjectHandle): string {
  const names = projectTables(project).tables.map((t) => t.name);
  const check = checkQuery(sql, { tables: names });
  if (!check.ok) {
    throw new ToolFailure(
      'invalid_params',
      check.reason,
      false,
      'Write a single SELECT … FROM "layer name" … over the project\'s layers (inspect_list_layers names them) with SQLite and SpatiaLite functions only; inspect_save_query keeps a result as a new layer.',
    );
  }
  return check.sql;
}

/**
 * The guard of SQL for a PostgreSQL/PostGIS server (src-shared/sql/checkServerQuery.ts) as a
 * tool error: one SELECT, no function that reaches files, the network, settings or other
 * sessions. Main checks again and runs it in a READ ONLY transaction (pgReadOnlyQuery.ts).
 */
export function requireServerQuery(sql: string): string {
  const check = checkServerQuery(sql);
  if (!check.ok)
    throw new ToolFailure(
      'invalid_params',
      check.reason,
      false,
      'Write one SELECT in PostgreSQL/PostGIS SQL over the server’s tables, without functions that reach files, the network, settings or other sessions.',
    );
  return check.sql;
}

const CONNECTION = 'Saved PostGIS connection id';

export const sqlQuery = defineTool({
  id: 'inspect.sql',
  version: '1.2.0',
  group: 'inspect',
  icon: 'search',
  title: 'SQL query',
  description:
    'Runs one read-only SELECT in SQLite/SpatiaLite where each layer is a table named after it ("my layer"); ' +
    'with connection, on that PostGIS server. Returns columns, rows (at most limit), total_rows and truncated.',
  input: z.object({
    sql: sqlParam(z.string().min(1).max(20_000).describe('One SELECT')),
    limit: z.number().int().min(1).max(1000).default(100).describe('Most rows returned'),
    include_geometry: z.boolean().default(false).describe('Add each row’s geometry as GeoJSON'),
    connection: databaseParam(CONNECTION).optional().describe(CONNECTION),
  }),
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal', 'postgis'],
  timeoutMs: 120_000,
  summary: (a) => `SQL${a.connection ? ` on ${a.connection}` : ''}: ${a.sql.length > 120 ? `${a.sql.slice(0, 117)}…` : a.sql}`,
  async prepare(args, { handles }) {
    return { args: { ...args, sql: args.connection ? requireServerQuery(args.sql) : requireQuery(args.sql, handles.project) } };
  },
  async execute(args, { handles, signal }) {
    // On a server: its dialect and tables, run by main (the PostGIS handle), not the GIS worker.
    if (args.connection)
      return handles.postgis.query(args.connection, requireServerQuery(args.sql), {
        limit: args.limit,
        includeGeometry: args.include_geometry,
        maxChars: MAX_CHARS,
        signal,
      });
    const { tables, notes } = projectTables(handles.project);
    if (tables.length === 0)
      throw new ToolFailure('invalid_params', 'The project has no vector layer or table to query.', false, 'Load one with layers_load.');
    const answer = await handles.gdal.call(
      'inspect.sql',
      {
        sql: requireQuery(args.sql, handles.project),
        tables,
        limit: args.limit,
        include_geometry: args.include_geometry,
        max_chars: MAX_CHARS,
      },
      { signal, hint: 'Check table and column names (the message lists them); quote names with spaces in double quotes.' },
    );
    return { ...answer, ...(notes.length ? { notes } : {}) };
  },
});

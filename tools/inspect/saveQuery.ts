import { z } from 'zod';
import { formatSource } from '../../src-shared/domain/source.js';
import { databaseParam, sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { projectTables } from './projectTables.js';
import { requireQuery, requireServerQuery } from './sqlQuery.js';

const CONNECTION = 'A saved PostGIS connection id: the SQL runs on that server and its result is copied';

export const saveQuery = defineTool({
  id: 'inspect.save_query',
  version: '1.2.0',
  group: 'inspect',
  icon: 'cog',
  title: 'Save SQL result as layer',
  description:
    'Runs one SELECT like inspect_sql and writes its whole result as a new GeoPackage layer in the project ' +
    'outputs folder (sources are never modified), then loads it: with a geometry column it is a map layer, ' +
    'without one a table. With connection, the query runs on that PostGIS server (read-only) and its result is copied. ' +
    'Returns the output path, the new layer name and the feature count.',
  input: z.object({
    sql: sqlParam(z.string().min(1).max(20_000).describe('One SELECT statement (SQLite dialect), as for inspect_sql')),
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only')
      .describe('Name of the new layer (letters, digits, _ and -)'),
    output_path: z.string().optional().describe('Set by Mapwright; any value given is replaced'),
    connection: databaseParam(CONNECTION).optional().describe(CONNECTION),
  }),
  safety: 'write',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 30 * 60_000,
  summary: (a) => `Save ${a.connection ? `${a.connection} server ` : ''}query as '${a.name}'${a.output_path ? ` → ${a.output_path}` : ''}`,
  async prepare(args, { handles }) {
    const sql = args.connection ? requireServerQuery(args.sql) : requireQuery(args.sql, handles.project);
    if (handles.project.listLayers().some((l) => l.name === args.name)) {
      throw new ToolFailure('invalid_params', `A layer named '${args.name}' already exists.`, false, 'Choose another name.');
    }
    const path = handles.project.outputPath(args.name, 'gpkg');
    return {
      args: { ...args, sql, output_path: path },
      preview: {
        sql,
        output: path,
        layer: args.name,
        ...(args.connection ? { runs_on: `the PostGIS server of '${args.connection}', read-only` } : {}),
      },
    };
  },
  async execute(args, { handles, signal, progress }) {
    const output = formatSource({ path: args.output_path!, sublayer: args.name });
    if (args.connection) {
      // The server's dialect and tables; the result is a local copy (a GeoPackage in the outputs folder).
      const saved = await handles.gdal.call(
        'postgis.save_query',
        { connectionId: args.connection, sql: requireServerQuery(args.sql), output },
        { signal, progress, hint: 'Try the query with inspect_sql and the same connection first.' },
      );
      return {
        output: saved.output,
        layer_name: args.name,
        feature_count: saved.featureCount,
        notes: [`A copy of the server query's result as it was now; it does not follow later changes on the server.`],
        load_layers: [{ path: saved.output, name: args.name, info: saved.info }],
      };
    }
    const { tables, notes } = projectTables(handles.project);
    const answer = await handles.gdal.call(
      'inspect.save_query',
      { sql: requireQuery(args.sql, handles.project), tables, output },
      { signal, progress, hint: 'Check table and column names (the message lists them); try the query with inspect_sql first.' },
    );
    return {
      output: answer.output,
      layer_name: args.name,
      feature_count: answer.featureCount,
      notes: [...notes, ...answer.notes],
      load_layers: [{ path: answer.output, name: args.name, info: answer.info }],
    };
  },
});

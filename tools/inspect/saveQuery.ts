import { z } from 'zod';
import { pgQuerySublayer, postgisSource } from '../../src-shared/domain/pgSource.js';
import { formatSource } from '../../src-shared/domain/source.js';
import { databaseParam, sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { projectTables } from './projectTables.js';
import { requireQuery, requireServerQuery } from './sqlQuery.js';

const CONNECTION = 'A saved PostGIS connection id: the SQL runs on that server (read-only)';
const KEEP = "With connection: 'copy' (default) saves the result now; 'view' keeps the query, re-run live on the server";

export const saveQuery = defineTool({
  id: 'inspect.save_query',
  version: '1.3.0',
  group: 'inspect',
  icon: 'cog',
  title: 'Save SQL result as layer',
  description:
    'Runs one SELECT like inspect_sql and writes its whole result as a new GeoPackage layer in the project ' +
    'outputs folder (sources are never modified), then loads it: with a geometry column it is a map layer, ' +
    'without one a table. With connection, the query runs on that PostGIS server (read-only). ' +
    'Returns the output path, the new layer name and the feature count.',
  input: z.object({
    sql: sqlParam(z.string().min(1).max(20_000).describe('One SELECT statement (SQLite dialect), as for inspect_sql')),
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only')
      .describe('Name of the new layer (letters, digits, _ and -)'),
    output_path: z.string().optional().describe('Set by Mapwright; any value given is replaced'),
    connection: databaseParam(CONNECTION).optional().describe(CONNECTION),
    keep: z.enum(['copy', 'view']).optional().describe(KEEP),
  }),
  safety: 'write',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 30 * 60_000,
  summary: (a) =>
    a.connection && a.keep === 'view'
      ? `Keep ${a.connection} server query as the live layer '${a.name}'`
      : `Save ${a.connection ? `${a.connection} server ` : ''}query as '${a.name}'${a.output_path ? ` → ${a.output_path}` : ''}`,
  async prepare(args, { handles }) {
    const sql = args.connection ? requireServerQuery(args.sql) : requireQuery(args.sql, handles.project);
    if (handles.project.listLayers().some((l) => l.name === args.name)) {
      throw new ToolFailure('invalid_params', `A layer named '${args.name}' already exists.`, false, 'Choose another name.');
    }
    if (args.keep && !args.connection)
      throw new ToolFailure(
        'invalid_params',
        '`keep` applies to a query on a PostGIS connection; a project query is always saved as a copy.',
        false,
      );
    if (args.connection && args.keep === 'view') {
      // Nothing is written: the project keeps the definition and every read runs it on the server.
      const { output_path: _ignored, ...rest } = args;
      const preview: Record<string, string> = {
        sql,
        layer: args.name,
        kept_as: 'a live view: the query is kept in the project and runs on the server, read-only, each time the layer is read',
        runs_on: `the PostGIS server of '${args.connection}'`,
      };
      return { args: { ...rest, sql }, preview };
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
    if (args.connection && args.keep === 'view') {
      const source = formatSource({ path: postgisSource(args.connection), sublayer: pgQuerySublayer(requireServerQuery(args.sql)) });
      // Read once now, so a query that fails on the server fails this call (not a silent unloaded layer).
      const info = await handles.gdal.call(
        'layers.describe',
        { source },
        { signal, hint: 'Try the query with inspect_sql and the same connection first.' },
      );
      return {
        output: source,
        layer_name: args.name,
        feature_count: info.featureCount,
        notes: ['A live layer: the query runs on the server each time the layer is read, so it follows later changes there.'],
        load_layers: [{ path: source, name: args.name, info }],
      };
    }
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

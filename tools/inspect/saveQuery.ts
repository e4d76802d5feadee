import { z } from 'zod';
import { formatSource } from '../../src-shared/domain/source.js';
import { sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { projectTables } from './projectTables.js';
import { requireQuery } from './sqlQuery.js';

export const saveQuery = defineTool({
  id: 'inspect.save_query',
  version: '1.1.0',
  group: 'inspect',
  icon: 'cog',
  title: 'Save SQL result as layer',
  description:
    'Runs one SELECT like inspect_sql and writes its whole result as a new GeoPackage layer in the project ' +
    'outputs folder (sources are never modified), then loads it: with a geometry column it is a map layer, ' +
    'without one a table. Returns the output path, the new layer name and the feature count.',
  input: z.object({
    sql: sqlParam(z.string().min(1).max(20_000).describe('One SELECT statement (SQLite dialect), as for inspect_sql')),
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only')
      .describe('Name of the new layer (letters, digits, _ and -)'),
    output_path: z.string().optional().describe('Set by Mapwright; any value given is replaced'),
  }),
  safety: 'write',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 30 * 60_000,
  summary: (a) => `Save query as '${a.name}'${a.output_path ? ` → ${a.output_path}` : ''}`,
  async prepare(args, { handles }) {
    const sql = requireQuery(args.sql, handles.project);
    if (handles.project.listLayers().some((l) => l.name === args.name)) {
      throw new ToolFailure('invalid_params', `A layer named '${args.name}' already exists.`, false, 'Choose another name.');
    }
    const path = handles.project.outputPath(args.name, 'gpkg');
    return { args: { ...args, sql, output_path: path }, preview: { sql, output: path, layer: args.name } };
  },
  async execute(args, { handles, signal, progress }) {
    const { tables, notes } = projectTables(handles.project);
    const answer = await handles.gdal.call(
      'inspect.save_query',
      { sql: requireQuery(args.sql, handles.project), tables, output: formatSource({ path: args.output_path!, sublayer: args.name }) },
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

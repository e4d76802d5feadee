import { z } from 'zod';
import type { Layer } from '../../src-shared/domain/layer.js';
import { parsePgTable, pgTableSublayer, postgisConnectionOf, postgisSource } from '../../src-shared/domain/pgSource.js';
import { formatSource, layerSource } from '../../src-shared/domain/source.js';
import { databaseParam } from '../../src-shared/security/paramCapabilities.js';
import type { PostgisHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from './findLayer.js';

/**
 * Export a project layer into a new table of a saved PostGIS connection (issue 16). A write
 * (asks; remembered per session like other writes once the server is known), raised to
 * destructive when it may replace a table: that always asks and is never remembered. The
 * existing-table check runs in the worker after approval (prepare does not reach the server
 * before the person said yes to it); the worker never writes over a table without `overwrite`.
 *
 * Only layers with geometry: a table without one could not be loaded back from PostGIS (the
 * app opens PostGIS tables with a geometry column only), and rasters have no vector form.
 */
const CONNECTION = 'Connection id from layers_postgis_tables; default: the only saved connection';

export const exportPostgis = defineTool({
  id: 'layers.export_postgis',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'Export layer to PostGIS',
  description:
    'Copies a vector layer into a new table of a saved PostGIS connection (never replaces a table unless overwrite). ' +
    'Returns table, source (postgis://…, for layers_load) and feature_count.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or exact name'),
    connection: databaseParam(CONNECTION).optional().describe(CONNECTION),
    schema: z.string().optional().describe("Target schema; default: the connection's results schema"),
    table: z.string().optional().describe('New table name; default: the layer name, lower-case'),
    overwrite: z.boolean().default(false).describe('Replace an existing table of that name'),
  }),
  rules: { layer: ['layer_exists'] },
  safety: 'write',
  userVisible: true,
  exec: 'worker',
  handles: ['project', 'gdal', 'postgis'],
  timeoutMs: 30 * 60_000,
  concurrency: 2,
  summary: (a) =>
    `Export ${a.layer} to PostGIS${a.schema && a.table ? ` ${a.schema}.${a.table}` : ''}${a.connection ? ` (${a.connection})` : ''}${a.overwrite ? ', replacing it' : ''}`,
  notice: (data) => {
    const d = data as { table?: string; feature_count?: number };
    return d.table ? `Exported to the PostGIS table ${d.table} (${d.feature_count ?? '?'} features)` : null;
  },
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    refuseKind(layer);
    const connection = await pickConnection(handles.postgis, args.connection);
    const schema = args.schema ?? connection.results_schema;
    if (!schema)
      throw new ToolFailure(
        'invalid_params',
        `The connection '${connection.id}' has no results schema; give schema.`,
        false,
        'Name a schema the connection may create tables in, or ask the person to pick a results schema in the PostGIS panel.',
      );
    const table = args.table ?? tableNameFor(layer.name);
    checkName('schema', schema, true);
    checkName('table', table, false);
    refuseSelf(layer, connection.id, schema, table);
    const target = formatSource({ path: postgisSource(connection.id), sublayer: pgTableSublayer({ schema, table }) });
    const crs = layer.info.crs;
    return {
      args: { ...args, connection: connection.id, schema, table },
      preview: {
        layer: layer.name,
        target,
        features: layer.info.featureCount,
        crs: crs ? (crs.epsg ? `EPSG:${crs.epsg}` : crs.name) : null,
        ...(args.overwrite ? { replaces: `${schema}.${table}, if it exists` } : {}),
      },
      ...(args.overwrite ? { escalate: 'destructive' as const } : {}),
    };
  },
  async execute(args, { handles, signal, progress }) {
    const layer = findLayer(handles.project, args.layer);
    const out = await handles.gdal.call(
      'postgis.export',
      { source: layerSource(layer), connectionId: args.connection!, schema: args.schema!, table: args.table!, overwrite: args.overwrite },
      { signal, progress, hint: 'Choose another table name, or check the connection in the PostGIS panel.' },
    );
    return {
      table: pgTableSublayer(out),
      source: formatSource({ path: postgisSource(args.connection!), sublayer: pgTableSublayer(out) }),
      feature_count: out.featureCount,
    };
  },
});

function refuseKind(layer: Layer): void {
  if (layer.kind === 'raster')
    throw new ToolFailure('invalid_params', `'${layer.name}' is a raster; only vector layers can be exported to PostGIS.`, false);
  if (layer.kind === 'table' || layer.info.geometryType === 'None')
    throw new ToolFailure(
      'invalid_params',
      `'${layer.name}' has no geometry; only vector layers can be exported to PostGIS.`,
      false,
      'Join it to a vector layer first (processing_run join_by_field), then export that.',
    );
}

async function pickConnection(postgis: PostgisHandle, wanted: string | undefined) {
  const { connections } = await postgis.tables(null);
  const ids = connections.map((c) => c.id).join(', ') || 'none saved';
  const found = wanted === undefined ? (connections.length === 1 ? connections[0] : undefined) : connections.find((c) => c.id === wanted);
  if (found) return found;
  throw new ToolFailure(
    'invalid_params',
    wanted === undefined
      ? `Name the PostGIS connection to export to (connections: ${ids}).`
      : `There is no saved PostGIS connection '${wanted}'.`,
    false,
    connections.length ? `Connections: ${ids}.` : 'The person adds connections in the PostGIS panel.',
  );
}

/** A layer name as a plain PostgreSQL table name: lower-case letters, digits and `_`, at most 63 bytes. */
export function tableNameFor(layerName: string): string {
  const base = layerName
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 63);
  if (!base) return 'layer';
  return /^[0-9]/.test(base) ? `t_${base}`.slice(0, 63) : base;
}

/**
 * Names are passed to the server quoted, exactly as given; what cannot round-trip is refused:
 * control characters, more than 63 bytes (the server would cut it), edge spaces and `|` (a
 * source drops or splits them), a dot in a schema (a source splits schema.table at the first dot).
 */
function checkName(what: 'schema' | 'table', name: string, isSchema: boolean): void {
  const why = !name
    ? 'is empty'
    : /\p{Cc}/u.test(name)
      ? 'contains a control character'
      : new TextEncoder().encode(name).length > 63
        ? 'is longer than 63 bytes'
        : name !== name.trim()
          ? 'starts or ends with a space'
          : name.includes('|')
            ? "contains '|'"
            : isSchema && name.includes('.')
              ? "contains '.'"
              : null;
  if (why) throw new ToolFailure('invalid_params', `The ${what} name ${JSON.stringify(name)} ${why}.`, false);
}

function refuseSelf(layer: Layer, connectionId: string, schema: string, table: string): void {
  if (postgisConnectionOf(layer.source) !== connectionId || !layer.sublayer) return;
  const own = parsePgTable(layer.sublayer);
  if (own && own.schema === schema && own.table === table)
    throw new ToolFailure(
      'invalid_params',
      `'${layer.name}' is the table ${schema}.${table} itself; export it under another table name.`,
      false,
    );
}

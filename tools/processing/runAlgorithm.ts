import { z } from 'zod';
import { parsePgTable, pgTableSublayer, postgisConnectionOf, postgisSource, type PgTableName } from '../../src-shared/domain/pgSource.js';
import { formatSource, layerSource } from '../../src-shared/domain/source.js';
import type { Handles, PostgisHandle } from '../../src-shared/tools/handles.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { ALGORITHMS, findAlgorithm } from '../../src-shared/processing/catalogue.js';
import type { AlgorithmSpec } from '../../src-shared/processing/algorithmSpec.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { utmEpsgFor } from './utmZone.js';

const Input = z.object({
  algorithm: z.enum(ALGORITHMS.map((a) => a.id) as [string, ...string[]]).describe('Algorithm id (see processing_list)'),
  params: z.record(z.string(), z.unknown()).describe('The algorithm’s parameters (see processing_describe)'),
  output_name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only')
    .optional()
    .describe('Name of the new layer; defaults to <input>_<algorithm>'),
  /** Chosen by the host in prepare, inside the project's outputs folder; shown in the dialog. */
  output_path: z.string().optional().describe('Set by Mapwright; any value given is replaced'),
});

/**
 * Where a run happens (issue 16): inside the PostGIS database that holds every input, when the
 * algorithm has an SQL form there — into a new table of the results schema the person chose on
 * that connection, or without one (`outputSchema` null) into a temporary table copied back as a
 * local GeoPackage layer; otherwise in the GIS worker, with a note saying why when any input is PostGIS.
 */
type Engine = { kind: 'database'; connectionId: string; outputSchema: string | null } | { kind: 'worker'; note: string | null };

function engineFor(spec: AlgorithmSpec, layers: readonly Layer[], postgis: PostgisHandle): Engine {
  const ids = layers.map((l) => postgisConnectionOf(l.source) || null);
  if (!ids.some(Boolean)) return { kind: 'worker', note: null };
  const first = ids[0];
  if (!first || ids.some((id) => id !== first))
    return {
      kind: 'worker',
      note: 'Ran in the GIS worker: its inputs are not all tables of one PostGIS connection, so the PostGIS tables were read over the network.',
    };
  if (layers.some((l) => parsePgTable(l.sublayer ?? '') === null))
    return { kind: 'worker', note: 'Ran in the GIS worker: a live query layer is read through its query, not pushed down as a table.' };
  const plan = postgis.pushdownPlan(first, spec.id);
  if (!plan.ok) return { kind: 'worker', note: `Ran in the GIS worker, reading the PostGIS tables over the network: ${plan.reason}.` };
  return { kind: 'database', connectionId: first, outputSchema: plan.outputSchema };
}

export const runAlgorithm = defineTool({
  id: 'processing.run',
  version: '1.2.0',
  group: 'processing',
  icon: 'cog',
  title: 'Run processing algorithm',
  description:
    'Runs one processing algorithm (processing_list, processing_describe) with progress; Stop cancels it. The result ' +
    'is a new file in the project outputs folder (sources are never modified), or, when every input is a table of one ' +
    'PostGIS connection, is made inside that database: a new table of its results schema (without one, a new local ' +
    'file); it is loaded as a new layer. Distances are in the input layer CRS units and are refused on degree-based layers ' +
    'with the reprojection to run first. Returns the output path, the new layer name, the feature count, notes to ' +
    'pass on, and for some algorithms a structured `report` (join_by_field: unmatched and duplicated keys).',
  input: Input,
  safety: 'write',
  exec: 'worker',
  handles: ['project', 'gdal', 'postgis'],
  timeoutMs: 30 * 60_000,
  summary: (a) => {
    const input = typeof a.params.input === 'string' ? ` on ${a.params.input}` : '';
    return `${a.algorithm}${input}${a.output_path ? ` → ${a.output_path}` : ''}`;
  },
  async prepare(args, { handles }) {
    const spec = findAlgorithm(args.algorithm)!;
    const parsed = spec.params.safeParse(args.params);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `params.${i.path.join('.')}: ${i.message}`).join('; ');
      throw new ToolFailure(
        'invalid_params',
        `Invalid parameters for ${spec.id}: ${problems}`,
        true,
        `See processing_describe {"algorithm":"${spec.id}"}.`,
      );
    }
    const params = parsed.data as Record<string, unknown>;
    const layers = resolveLayers(spec, params, handles.project);
    const main = layers[0];
    checkDistanceUnits(spec, params, main);
    const name = args.output_name ?? `${main?.name ?? 'output'}_${spec.id}`;
    const engine = engineFor(spec, layers, handles.postgis);
    // In the database the output is a new table of the results schema (the name may gain _2 if taken);
    // without one it comes back as a new GeoPackage in the outputs folder, as a worker run's.
    const path =
      engine.kind === 'database' && engine.outputSchema !== null
        ? formatSource({
            path: postgisSource(engine.connectionId),
            sublayer: pgTableSublayer({ schema: engine.outputSchema, table: name }),
          })
        : handles.project.outputPath(name, spec.output === 'vector' ? 'gpkg' : 'tif');
    return {
      args: { ...args, params, output_name: name, output_path: path },
      preview: {
        input: main ? main.name : null,
        features: main?.info.featureCount ?? null,
        crs: main?.info.crs?.epsg ? `EPSG:${main.info.crs.epsg}` : (main?.info.crs?.name ?? null),
        output: path,
        runs_in: engine.kind === 'database' ? `the PostGIS database of connection '${engine.connectionId}'` : 'the GIS worker',
        // The free name is found on the server when the run starts (nothing is asked of it before approval).
        ...(engine.kind === 'database' && engine.outputSchema !== null
          ? { output_table: `a new table; if ${engine.outputSchema}.${name} is taken, ${name}_2, _3…` }
          : {}),
        ...(engine.kind === 'database' && engine.outputSchema === null ? { note: localNote(path) } : {}),
        ...(engine.kind === 'worker' && engine.note ? { note: engine.note } : {}),
      },
    };
  },
  async execute(args, { handles, signal, progress }) {
    const spec = findAlgorithm(args.algorithm)!;
    const engine = engineFor(spec, resolveLayers(spec, args.params, handles.project), handles.postgis);
    if (engine.kind === 'database') return runInDatabase(spec, args, engine.connectionId, handles, { signal, progress });
    const params: Record<string, unknown> = { ...args.params };
    for (const key of spec.layerParams) {
      const toSource = (ref: string): string => layerSource(findLayer(handles.project, ref));
      if (Array.isArray(params[key])) params[key] = layerRefs(params[key]).map(toSource);
      else if (params[key] !== undefined) params[key] = toSource(String(params[key]));
    }
    const output = formatSource({ path: args.output_path!, sublayer: spec.output === 'vector' ? args.output_name! : null });
    const result = await handles.gdal.call('processing.run', { algorithm: spec.id, params, output }, { signal, progress });
    return {
      output: result.output,
      feature_count: result.featureCount,
      notes: engine.note ? [engine.note, ...result.notes] : result.notes,
      ...(result.report ? { report: result.report } : {}),
      load_layers: [{ path: result.output, name: args.output_name!, info: result.info }],
    };
  },
});

/** A result that comes back from the server: what the preview and the notes say. */
const localNote = (path: string, done = false) =>
  `${done ? 'Ran' : 'Runs'} inside the PostGIS database (in a temporary table: nothing is written to the server); ` +
  `the result ${done ? 'came' : 'comes'} back as the local layer ${path}.`;

/**
 * The run inside PostGIS: the inputs' tables, the other params as checked, a new table out —
 * or, when prepare chose a local file (no results schema), that GeoPackage layer.
 */
async function runInDatabase(
  spec: AlgorithmSpec,
  args: { params: Record<string, unknown>; output_name?: string | undefined; output_path?: string | undefined },
  connectionId: string,
  handles: Pick<Handles, 'project' | 'postgis'>,
  ctx: { signal: AbortSignal; progress(fraction: number, message: string): void },
) {
  const tables: PgTableName[] = [];
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args.params)) {
    if (!spec.layerParams.includes(key)) params[key] = value;
  }
  for (const key of spec.layerParams) {
    for (const ref of layerRefs(args.params[key])) {
      const table = parsePgTable(findLayer(handles.project, ref).sublayer ?? '');
      if (!table) throw new ToolFailure('invalid_params', `params.${key}: '${ref}' does not name its PostGIS table.`, false);
      tables.push(table);
    }
  }
  // What the person approved decides where the result goes (the settings may have changed since).
  const local = args.output_path !== undefined && postgisConnectionOf(args.output_path) === null;
  const out = await handles.postgis.pushdown(
    {
      connectionId,
      algorithm: spec.id,
      tables,
      params,
      outputName: args.output_name!,
      ...(local ? { localOutput: formatSource({ path: args.output_path!, sublayer: args.output_name! }) } : {}),
    },
    { signal: ctx.signal, progress: ctx.progress },
  );
  if ('output' in out)
    return {
      output: out.output,
      feature_count: out.featureCount,
      notes: [localNote(out.output, true), ...out.notes],
      load_layers: [{ path: out.output, name: args.output_name!, info: out.info }],
    };
  const output = formatSource({ path: postgisSource(connectionId), sublayer: pgTableSublayer(out) });
  return {
    output,
    feature_count: out.featureCount,
    notes: [`Ran inside the PostGIS database: the result is the table ${out.schema}.${out.table} there.`, ...out.notes],
    load_layers: [{ path: output, name: args.output_name! }],
  };
}

function resolveLayers(spec: AlgorithmSpec, params: Record<string, unknown>, project: Parameters<typeof findLayer>[0]): Layer[] {
  return spec.layerParams.flatMap((key) =>
    layerRefs(params[key]).map((ref) => {
      const layer = findLayer(project, ref);
      const want = spec.layerKinds?.[key] ?? (spec.output === 'vector' ? 'vector' : undefined);
      const allowed: readonly string[] = want === undefined ? [] : typeof want === 'string' ? [want] : want;
      if (allowed.length && !allowed.includes(layer.kind)) {
        throw new ToolFailure(
          'invalid_params',
          `params.${key}: ${spec.id} needs a ${allowed.join(' or ')} layer; '${layer.name}' is a ${layer.kind}.`,
          false,
        );
      }
      return layer;
    }),
  );
}

/** A layer param holds one layer, several (an array), or none when optional and left out. */
function layerRefs(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** A distance on a layer in degrees is not a distance: refuse it with the reprojection to make first. */
function checkDistanceUnits(spec: AlgorithmSpec, params: Record<string, unknown>, layer: Layer | undefined): void {
  if (!layer || spec.distanceParams.length === 0) return;
  const crs = layer.info.crs;
  if (!crs?.geographic) return;
  const epsg = layer.info.extent4326 ? utmEpsgFor(layer.info.extent4326) : 3857;
  const fix = { algorithm: 'reproject', params: { input: layer.name, target_crs: `EPSG:${epsg}` } };
  const field = spec.distanceParams[0]!;
  const bbox = layer.info.extent4326;
  const width = bbox ? bbox[2] - bbox[0] : 0;
  const what = `params.${field} is a distance in the layer's CRS units, but '${layer.name}' is in degrees (${crs.epsg ? `EPSG:${crs.epsg}` : crs.name}). A ${spec.id} of ${String(params[field])} would mean ${String(params[field])} degrees.`;
  if (width > 60) {
    // No single projected CRS keeps distances right across a continent or the world, and a
    // UTM zone cannot even hold points on the far side of the globe.
    throw new ToolFailure(
      'invalid_params',
      what,
      false,
      `'${layer.name}' spans ${Math.round(width)}° of longitude, too wide for one projected CRS. Select one region first ` +
        `(processing_run select_by_location with a polygon layer, or select_by_attribute), then reproject that selection to its UTM zone and run ${spec.id} on it.`,
    );
  }
  // One UTM zone is accurate within a few degrees of its central meridian; say so for wide layers.
  const wide =
    width > 12
      ? ` Note: '${layer.name}' spans ${Math.round(width)}° of longitude; distances far from the zone's central meridian will be less accurate.`
      : '';
  throw new ToolFailure(
    'invalid_params',
    what,
    false,
    `Reproject first: processing_run ${JSON.stringify(fix)} — then run ${spec.id} on the reprojected layer ` +
      `('${layer.name}_reproject') with the distance in metres.${wide}`,
  );
}

import { z } from 'zod';
import { sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { BBox } from '../../src-shared/domain/layer.js';
import { whereSyntaxProblem } from '../../src-shared/processing/sqlExpression.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { findLayer } from '../layers/findLayer.js';
import { layerSource } from '../../src-shared/domain/source.js';

/** What the model reads must stay small; 60,000 characters ≈ 15,000 tokens (inspect_sql's cap too). */
export const MAX_CHARS = 60_000;

export const queryFeatures = defineTool({
  id: 'inspect.query_features',
  version: '1.1.0',
  group: 'inspect',
  icon: 'search',
  title: 'Query features',
  description:
    'Finds features by an attribute filter and/or a bbox or geometry they intersect. Returns GeoJSON in ' +
    'EPSG:4326 with the asked fields, total_count (all matches) and truncated. Joins and aggregates: inspect_sql.',
  input: z.object({
    layer: z.string().min(1).describe('Layer id or name'),
    where: sqlParam(z.string().min(1).max(4000)).optional().describe("SQLite WHERE over the fields, e.g. pop > 1000 AND name = 'X'"),
    bbox: BBox.optional().describe('[xmin, ymin, xmax, ymax] in filter_crs'),
    geometry: z
      .union([z.string().min(1), z.record(z.string(), z.unknown())])
      .optional()
      .describe('WKT or GeoJSON geometry in filter_crs'),
    filter_crs: z.string().min(1).default('EPSG:4326').describe('CRS of bbox/geometry'),
    fields: z.array(z.string().min(1)).max(100).optional().describe('Only these fields (default all)'),
    limit: z.number().int().min(1).max(1000).default(50).describe('Most features returned'),
    include_geometry: z.boolean().default(true).describe('false: attributes only'),
  }),
  rules: { layer: ['layer_exists'], fields: ['field_exists:layer'] },
  safety: 'read',
  exec: 'worker',
  handles: ['project', 'gdal'],
  timeoutMs: 120_000,
  summary: (a) =>
    `Query ${a.layer}${a.where ? ` where ${a.where}` : ''}${a.bbox ? ` in [${a.bbox.join(', ')}]` : ''}${a.geometry ? ' intersecting a geometry' : ''}`,
  async prepare(args, { handles }) {
    const layer = findLayer(handles.project, args.layer);
    if (layer.kind === 'raster') {
      throw new ToolFailure(
        'invalid_params',
        `'${layer.name}' is a raster; it has no features.`,
        false,
        'Use inspect_sample_raster or inspect_raster_stats.',
      );
    }
    if (args.bbox && args.geometry) throw new ToolFailure('invalid_params', 'Give either bbox or geometry, not both.', false);
    if (layer.kind === 'table' && (args.bbox || args.geometry)) {
      throw new ToolFailure('invalid_params', `'${layer.name}' is a table without geometry: only 'where' can filter it.`, false);
    }
    if (args.where?.includes(';')) throw new ToolFailure('invalid_params', 'where must be one condition, without semicolons.', false);
    // The filter reaches SQLite for GeoPackage/SQLite sources, where GDAL's and SpatiaLite's
    // file and network functions exist: only allowed functions may be called (the worker also
    // checks the field names).
    const whereProblem = args.where ? whereSyntaxProblem(args.where) : null;
    if (whereProblem) {
      throw new ToolFailure(
        'invalid_params',
        `Invalid where: ${whereProblem}.`,
        false,
        `One condition over the layer's fields, e.g. "pop > 1000000 AND continent = 'Africa'"; fields: ${layer.info.fields.map((f) => f.name).join(', ') || 'see inspect_layer_info'}.`,
      );
    }
    return { args };
  },
  async execute(args, { handles, signal }) {
    const layer = findLayer(handles.project, args.layer);
    const answer = await handles.gdal.call(
      'inspect.query_features',
      {
        source: layerSource(layer),
        where: args.where ?? null,
        bbox: args.bbox ?? null,
        geometry: args.geometry ?? null,
        filter_crs: args.filter_crs,
        fields: args.fields ?? null,
        limit: args.limit,
        include_geometry: args.include_geometry,
        max_chars: MAX_CHARS,
      },
      { signal, hint: `Fields of '${layer.name}': ${layer.info.fields.map((f) => f.name).join(', ')}` },
    );
    return { layer: layer.name, ...answer, ...outsideNote(answer.total_count, args, layer.info.extent4326) };
  },
});

/**
 * Nothing matched a box that misses the layer altogether: say so, so "none" is not read as an
 * answer about a region the data does not cover (issue 17, abstention).
 */
function outsideNote(
  total: number,
  args: { bbox?: [number, number, number, number]; filter_crs: string },
  extent: [number, number, number, number] | null,
): { note?: string } {
  if (total !== 0 || !args.bbox || !extent || args.filter_crs.toUpperCase() !== 'EPSG:4326') return {};
  const [w, s, e, n] = args.bbox;
  if (w <= extent[2] && e >= extent[0] && s <= extent[3] && n >= extent[1]) return {};
  const box = extent.map((v) => Number(v.toFixed(3))).join(', ');
  return { note: `The bbox lies outside the layer's extent [${box}] (degrees): the layer has no data there.` };
}

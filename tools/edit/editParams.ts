import { z } from 'zod';
import type { GeometryInput, Target } from '../../src-shared/edit/editOps.js';
import { InputCrs, Scalar } from '../../src-shared/edit/editOps.js';
import { sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/** The arguments the edit tools share, as the model sees them. */

export const layerArg = z.string().min(1).describe('Layer name or id');

export const geometryArg = z
  .union([z.string().min(1).max(2_000_000), z.object({ type: z.string(), coordinates: z.unknown() }).passthrough()])
  .describe('WKT text or a GeoJSON geometry object');

export const crsArg = InputCrs.default('EPSG:4326').describe("Coordinates in lon/lat (default) or 'layer' for the layer's own CRS");

export const fidsArg = z.array(z.number().int()).min(1).max(100_000).optional().describe('Feature ids');

export const whereArg = sqlParam(z.string().min(1).max(4_000))
  .optional()
  .describe('Instead of fids: an attribute filter (SQLite expression, e.g. "pop > 1000"); fid may be used');

export const valuesArg = z.record(z.string(), Scalar).describe('Field name → value (null empties it)');

export function geometryInput(g: z.output<typeof geometryArg>): GeometryInput {
  return typeof g === 'string' ? { wkt: g } : { geojson: g as { type: string } };
}

/** Exactly one of `fids` and `where`. */
export function targetOf(a: { fids?: number[] | undefined; where?: string | undefined }): Target {
  if (a.fids && a.where) throw new ToolFailure('invalid_params', 'Give either fids or where, not both.', false);
  if (a.fids) return { fids: a.fids };
  if (a.where) return { where: a.where };
  throw new ToolFailure(
    'invalid_params',
    'Say which features: fids (ids) or where (a filter).',
    false,
    'inspect_query_features or map_selection gives ids.',
  );
}

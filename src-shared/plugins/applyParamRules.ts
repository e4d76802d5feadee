import type { Layer } from '../domain/layer.js';
import { editDistance } from '../text/editDistance.js';
import { ToolFailure } from '../tools/toolResult.js';
import { parseParamRule, type GeometryKind, type ParamRule } from './paramRules.js';

const NUMERIC = new Set(['integer', 'integer64', 'real']);

/** The names nearest to `wanted`, for a message the model can recover from. */
function nearest(wanted: string, names: readonly string[], count = 3): string[] {
  return [...names]
    .sort((a, b) => editDistance(wanted.toLowerCase(), a.toLowerCase()) - editDistance(wanted.toLowerCase(), b.toLowerCase()))
    .slice(0, count);
}

function geometryKind(type: string | null): GeometryKind | null {
  const t = (type ?? '').toLowerCase();
  if (t.includes('point')) return 'point';
  if (t.includes('line')) return 'line';
  if (t.includes('polygon')) return 'polygon';
  return null;
}

/**
 * Checks a call's arguments against the project by the tool's declared parameter rules, before
 * any dialog (DESIGN §3): the layer exists, is a raster/vector/table of the right geometry, in a
 * projected CRS; the field exists and is numeric; the band exists. Throws `invalid_params`
 * naming the parameter, with the nearest valid names. Rules were checked for sense when the
 * plugin was read; an unparsable one here is skipped.
 */
export function applyParamRules(
  rules: Readonly<Record<string, readonly string[]>>,
  args: Readonly<Record<string, unknown>>,
  project: { listLayers(): Layer[]; getLayer(idOrName: string): Layer | undefined },
): void {
  const layerOf = (param: string): Layer | undefined => {
    const value = args[param];
    return typeof value === 'string' ? project.getLayer(value) : undefined;
  };
  const fail = (param: string, message: string, hint?: string): never => {
    throw new ToolFailure('invalid_params', `params.${param}: ${message}`, false, hint);
  };
  for (const [param, texts] of Object.entries(rules)) {
    const value = args[param];
    if (value === undefined || value === null) continue; // an optional parameter left out
    const parsed = texts.map(parseParamRule).filter((r): r is ParamRule => r !== null);
    for (const rule of parsed) {
      switch (rule.kind) {
        case 'layer_exists': {
          if (layerOf(param)) break;
          const names = project.listLayers().map((l) => l.name);
          fail(
            param,
            `no layer '${String(value)}' in the project.`,
            names.length ? `Nearest layers: ${nearest(String(value), names).join(', ')}` : 'The project has no layers.',
          );
          break;
        }
        case 'raster':
        case 'vector':
        case 'table': {
          const layer = layerOf(param);
          if (layer && layer.kind !== rule.kind) fail(param, `'${layer.name}' is a ${layer.kind}; this tool needs a ${rule.kind} layer.`);
          break;
        }
        case 'geometry': {
          const layer = layerOf(param);
          const kind = layer ? geometryKind(layer.info.geometryType) : null;
          if (layer && (!kind || !rule.geometries.includes(kind))) {
            fail(
              param,
              `'${layer.name}' has ${layer.info.geometryType ?? 'no'} geometry; this tool needs ${rule.geometries.join(' or ')}.`,
            );
          }
          break;
        }
        case 'crs_projected': {
          const layer = layerOf(param);
          if (layer?.info.crs?.geographic) {
            fail(
              param,
              `'${layer.name}' is in degrees (${layer.info.crs.epsg ? `EPSG:${layer.info.crs.epsg}` : (layer.info.crs.name ?? 'geographic')}); this tool needs a projected CRS.`,
              'Reproject it first (processing_run reproject to its UTM zone).',
            );
          }
          break;
        }
        case 'field_exists': {
          const layer = layerOf(rule.layerParam);
          const fields = layer?.info.fields.map((f) => f.name) ?? [];
          if (layer && !fields.includes(String(value))) {
            fail(
              param,
              `no field '${String(value)}' in '${layer.name}'.`,
              fields.length ? `Nearest fields: ${nearest(String(value), fields).join(', ')}` : `'${layer.name}' has no fields.`,
            );
          }
          break;
        }
        case 'field_numeric': {
          const ref = parsed.find((r) => r.kind === 'field_exists');
          const layer = ref?.kind === 'field_exists' ? layerOf(ref.layerParam) : undefined;
          const field = layer?.info.fields.find((f) => f.name === value);
          if (layer && field && !NUMERIC.has(field.type.toLowerCase())) {
            const numeric = layer.info.fields.filter((f) => NUMERIC.has(f.type.toLowerCase())).map((f) => f.name);
            fail(
              param,
              `field '${field.name}' of '${layer.name}' is ${field.type}, not numeric.`,
              numeric.length ? `Numeric fields: ${numeric.join(', ')}` : undefined,
            );
          }
          break;
        }
        case 'band_exists': {
          const layer = layerOf(rule.layerParam);
          const band = Number(value);
          if (layer && !(Number.isInteger(band) && band >= 1 && band <= layer.info.bands.length)) {
            fail(
              param,
              `'${layer.name}' has ${layer.info.bands.length} band${layer.info.bands.length === 1 ? '' : 's'}; there is no band ${String(value)}.`,
            );
          }
          break;
        }
      }
    }
  }
}

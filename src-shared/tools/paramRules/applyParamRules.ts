import type { Layer } from '../../domain/layer.js';
import { editDistance } from '../../text/editDistance.js';
import { ToolFailure } from '../toolResult.js';
import { parseParamRule, type GeometryKind, type ParamRule } from './paramRules.js';

const NUMERIC = new Set(['integer', 'integer64', 'real']);
/** What a message repeats of a value: enough to recognise it, never a 10k-character wall. */
const SHOWN_CHARS = 80;
/** Edit distance is quadratic: a hostile name is compared by its start only. */
const COMPARED_CHARS = 200;
/** Up to this many layers or fields, a refusal lists them all (nearest first); beyond, the nearest few. */
const LIST_ALL_UP_TO = 12;
const NEAREST_COUNT = 5;

/** What the rules read of the project. */
export interface RuleProject {
  listLayers(): Layer[];
  getLayer(idOrName: string): Layer | undefined;
}

export interface RuleOptions {
  /**
   * Other tools that take what this one refused (wire names), so the hint names what to call
   * instead: `layer` itself (its kind or geometry: a raster given to a vector style → the raster
   * styles), or a `text_field` of it (a text field given to a numeric style → the categories).
   */
  alternativesFor?(layer: Layer, need: 'layer' | 'text_field'): readonly string[];
}

/** Each parameter's rules, parsed; a text that does not parse is skipped (the registry refused those). */
export function parseRules(rules: Readonly<Record<string, readonly string[]>>): Map<string, ParamRule[]> {
  const parsed = new Map<string, ParamRule[]>();
  for (const [param, texts] of Object.entries(rules)) {
    parsed.set(
      param,
      texts.map(parseParamRule).filter((r): r is ParamRule => r !== null),
    );
  }
  return parsed;
}

/** Whether `layer` is of the kind and geometry `rules` ask for (raster/vector/table, geometry:…). */
export function layerFits(rules: readonly ParamRule[], layer: Layer): boolean {
  return rules.every((rule) => {
    if (rule.kind === 'raster' || rule.kind === 'vector' || rule.kind === 'table') return layer.kind === rule.kind;
    if (rule.kind === 'geometry') {
      const kind = geometryKind(layer.info.geometryType);
      return kind !== null && rule.geometries.includes(kind);
    }
    return true;
  });
}

/**
 * Checks a call's arguments against the project by the tool's declared parameter rules, before
 * any dialog and before the tool's own `prepare` (DESIGN §3): the layer exists, is a
 * raster/vector/table of the right geometry, in a projected CRS; the field exists and is
 * numeric; the band exists. A parameter holding a list is checked item by item. Throws
 * `invalid_params` naming the parameter (`layers[1]: …`), with the nearest valid names.
 */
export function applyParamRules(
  rules: Readonly<Record<string, readonly string[]>>,
  args: Readonly<Record<string, unknown>>,
  project: RuleProject,
  options: RuleOptions = {},
): void {
  const parsed = parseRules(rules);
  // Layers first: a field or band rule reads the layer its parameter names.
  const order = [...parsed.keys()].sort((a, b) => Number(isLayerParam(parsed, b)) - Number(isLayerParam(parsed, a)));
  for (const param of order) {
    const list = parsed.get(param)!;
    const value = args[param];
    if (value === undefined || value === null) continue; // an optional parameter left out
    const items = Array.isArray(value) ? value.map((v, i) => ({ value: v as unknown, at: `${param}[${i}]` })) : [{ value, at: param }];
    for (const item of items) checkItem(list, item.value, item.at, { args, project, options });
  }
}

interface Scope {
  args: Readonly<Record<string, unknown>>;
  project: RuleProject;
  options: RuleOptions;
}

function checkItem(list: readonly ParamRule[], value: unknown, at: string, scope: Scope): void {
  const { project, options } = scope;
  const isLayer = list.some((r) => r.kind === 'layer_exists');
  let layer: Layer | undefined;
  if (isLayer) {
    if (typeof value !== 'string') fail(at, `expects a layer id or name (text), not ${describeType(value)}.`);
    layer = project.getLayer(value);
    if (!layer) {
      const all = project.listLayers();
      // Suggest layers of the kind the tool takes first: a near name of the wrong kind would only fail next.
      const fitting = all.filter((l) => layerFits(list, l));
      const names = (fitting.length ? fitting : all).map((l) => l.name);
      fail(
        at,
        `no layer ${quote(value)} in the project.`,
        names.length
          ? `Nearest layers: ${nearest(value, names).join(', ')}. Call inspect_list_layers for ids.`
          : 'The project has no layers yet; load one with layers_load.',
      );
    }
  }
  for (const rule of list) {
    switch (rule.kind) {
      case 'raster':
      case 'vector':
      case 'table':
        if (layer && layer.kind !== rule.kind)
          fail(at, `'${layer.name}' is ${kindName(layer.kind)}; this tool needs ${kindName(rule.kind)}.`, alternatives(layer, options));
        break;
      case 'geometry': {
        const kind = layer ? geometryKind(layer.info.geometryType) : null;
        if (layer && (!kind || !rule.geometries.includes(kind))) {
          fail(
            at,
            `'${layer.name}' has ${layer.info.geometryType ?? 'no'} geometry; this tool needs a ${rule.geometries.join(' or ')} layer.`,
            [geometryAdvice(rule.geometries), alternatives(layer, options)].filter(Boolean).join(' '),
          );
        }
        break;
      }
      case 'crs_projected':
        if (layer?.info.crs?.geographic) {
          const crs = layer.info.crs;
          fail(
            at,
            `'${layer.name}' is in degrees (${crs.epsg ? `EPSG:${crs.epsg}` : (crs.name ?? 'geographic')}); this tool needs a projected CRS.`,
            'Reproject it first (processing_run reproject to its UTM zone).',
          );
        }
        break;
      case 'field_exists':
        checkField(list, value, at, layerNamedBy(rule.layerParam, scope), options);
        break;
      case 'band_exists':
        checkBand(value, at, layerNamedBy(rule.layerParam, scope));
        break;
      case 'layer_exists':
      case 'field_numeric': // with field_exists, in checkField
        break;
    }
  }
}

/** The layer another parameter names, when it names exactly one that exists (else its own rule speaks). */
function layerNamedBy(param: string, { args, project }: Scope): Layer | undefined {
  const value = args[param];
  return typeof value === 'string' ? project.getLayer(value) : undefined;
}

function checkField(list: readonly ParamRule[], value: unknown, at: string, layer: Layer | undefined, options: RuleOptions): void {
  if (!layer) return;
  if (typeof value !== 'string') fail(at, `expects a field name (text), not ${describeType(value)}.`);
  const numeric = list.some((r) => r.kind === 'field_numeric');
  const numericFields = layer.info.fields.filter((f) => NUMERIC.has(f.type.toLowerCase()));
  const listed = (fields: typeof layer.info.fields) => fields.map((f) => `${f.name} (${f.type})`).join(', ');
  const field = layer.info.fields.find((f) => f.name === value);
  if (!field) {
    const pool = numeric && numericFields.length ? numericFields : layer.info.fields;
    const near = nearest(
      value,
      pool.map((f) => f.name),
    ).map((name) => pool.find((f) => f.name === name)!);
    // The same name in other letter case is the likeliest slip (pop_est for POP_EST).
    const sameName = layer.info.fields.find((f) => f.name.toLowerCase() === value.toLowerCase());
    fail(
      at,
      `'${layer.name}' has no field ${quote(value)}.${sameName ? ` Did you mean '${sameName.name}'?` : ''}`,
      near.length
        ? `Nearest ${numeric && numericFields.length ? 'numeric ' : ''}fields of '${layer.name}': ${listed(near)}.`
        : `'${layer.name}' has no fields.`,
    );
  }
  if (numeric && !NUMERIC.has(field.type.toLowerCase())) {
    const others = options.alternativesFor?.(layer, 'text_field') ?? [];
    fail(
      at,
      `field '${field.name}' of '${layer.name}' holds ${field.type} values; this tool needs numbers.`,
      [
        numericFields.length
          ? `Numeric fields of '${layer.name}': ${listed(numericFields.slice(0, 10))}${numericFields.length > 10 ? '…' : ''}.`
          : `'${layer.name}' has no numeric field.`,
        others.length ? `For text values use ${others.slice(0, 5).join(', ')}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
}

function checkBand(value: unknown, at: string, layer: Layer | undefined): void {
  if (!layer) return;
  const count = layer.info.bands.length;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= count) return;
  fail(
    at,
    `'${layer.name}' has ${count} band${count === 1 ? '' : 's'}; there is no band ${typeof value === 'number' ? value : quote(value)}.`,
    count ? `Bands are numbered 1 to ${count}.` : `'${layer.name}' has no bands (is it a raster?).`,
  );
}

function fail(at: string, message: string, hint?: string): never {
  throw new ToolFailure('invalid_params', `${at}: ${message}`, false, hint || undefined);
}

function isLayerParam(parsed: Map<string, ParamRule[]>, param: string): boolean {
  return parsed.get(param)?.some((r) => r.kind === 'layer_exists') ?? false;
}

function alternatives(layer: Layer, options: RuleOptions): string {
  const tools = options.alternativesFor?.(layer, 'layer') ?? [];
  return tools.length ? `For '${layer.name}' use ${tools.slice(0, 5).join(', ')}.` : '';
}

/** How to get the geometry a tool needs from what there is. */
function geometryAdvice(wanted: readonly GeometryKind[]): string {
  if (wanted.includes('point')) return 'Make points first (processing_run centroids).';
  return `Choose a ${wanted.join(' or ')} layer (inspect_list_layers shows each geometry type).`;
}

/**
 * The names nearest to `wanted`, nearest first, for a message the model can recover from: all
 * of them when there are few (a short list helps more than a guess), else the closest.
 */
function nearest(wanted: string, names: readonly string[]): string[] {
  const w = wanted.slice(0, COMPARED_CHARS).toLowerCase();
  return names
    .map((name) => ({ name, d: editDistance(w, name.slice(0, COMPARED_CHARS).toLowerCase()) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, names.length <= LIST_ALL_UP_TO ? names.length : NEAREST_COUNT)
    .map((x) => x.name);
}

/** A value as a message shows it: quoted, on one line, clipped. */
function quote(value: unknown): string {
  const text = String(value).replace(/\s+/g, ' ');
  return `'${text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…' (${text.length} characters)` : `${text}'`}`;
}

/** `a raster layer`, `a vector layer`, `a table`. */
function kindName(kind: string): string {
  return kind === 'table' ? 'a table' : `a ${kind} layer`;
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function geometryKind(type: string | null): GeometryKind | null {
  const t = (type ?? '').toLowerCase();
  if (t.includes('point')) return 'point';
  if (t.includes('line')) return 'line';
  if (t.includes('polygon')) return 'polygon';
  return null;
}

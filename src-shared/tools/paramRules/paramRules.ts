/**
 * Semantic rules on a tool's parameters: what the dispatcher checks against the project before
 * any dialog (a layer that exists, a numeric field of it, a projected CRS…). Built-in tools
 * declare them in `ToolDefinition.rules`, plugins in plugin.yaml, both as short strings
 * (`field_exists:layer`); here they are parsed into data and checked for sense — a rule naming
 * another parameter must name one that holds a layer.
 */

export type GeometryKind = 'point' | 'line' | 'polygon';
export const GEOMETRY_KINDS: readonly GeometryKind[] = ['point', 'line', 'polygon'];

export type ParamRule =
  /** The value names a layer of the project (id or name). */
  | { kind: 'layer_exists' }
  /** The value names a field of the layer named by parameter `layerParam`. */
  | { kind: 'field_exists'; layerParam: string }
  /** The field (see `field_exists`) is numeric. */
  | { kind: 'field_numeric' }
  /** The layer's CRS is projected (distances in metres or feet, not degrees). */
  | { kind: 'crs_projected' }
  | { kind: 'raster' }
  | { kind: 'vector' }
  /** A vector layer without geometry (a CSV, an attribute table). */
  | { kind: 'table' }
  /** The layer's geometry is one of these. */
  | { kind: 'geometry'; geometries: GeometryKind[] }
  /** The value is a band number of the raster named by parameter `layerParam`. */
  | { kind: 'band_exists'; layerParam: string };

export type ParamRuleKind = ParamRule['kind'];

/** For editors: the written forms, in the JSON Schema and in messages. */
export const PARAM_RULE_FORMS = [
  'layer_exists',
  'field_exists:<param>',
  'field_numeric',
  'crs_projected',
  'raster',
  'vector',
  'table',
  'geometry:point|line|polygon',
  'band_exists:<param>',
] as const;

/** The syntax of every rule (not whether a named parameter exists). */
export const PARAM_RULE_PATTERN =
  /^(layer_exists|field_numeric|crs_projected|raster|vector|table|(field_exists|band_exists):[A-Za-z_][A-Za-z0-9_]*|geometry:(point|line|polygon)(\|(point|line|polygon))*)$/;

export function parseParamRule(text: string): ParamRule | null {
  if (!PARAM_RULE_PATTERN.test(text)) return null;
  const [head = '', arg = ''] = text.split(':');
  switch (head) {
    case 'field_exists':
    case 'band_exists':
      return { kind: head, layerParam: arg };
    case 'geometry': {
      const geometries = arg.split('|') as GeometryKind[];
      return new Set(geometries).size === geometries.length ? { kind: 'geometry', geometries } : null;
    }
    default:
      return { kind: head as 'layer_exists' | 'field_numeric' | 'crs_projected' | 'raster' | 'vector' | 'table' };
  }
}

/** Rules that describe a layer, so they need `layer_exists` on the same parameter. */
const ON_LAYER = new Set<ParamRuleKind>(['crs_projected', 'raster', 'vector', 'table', 'geometry']);

/**
 * Checks one tool's `rules` against its parameter names. Each problem is `[param, message]`
 * so the caller can put it at `rules.<param>`; an empty list means the rules make sense.
 */
export function checkParamRules(rules: Record<string, readonly string[]>, params: readonly string[]): [string, string][] {
  const problems: [string, string][] = [];
  const parsed = new Map<string, ParamRule[]>();
  for (const [param, texts] of Object.entries(rules)) {
    if (!params.includes(param)) {
      problems.push([param, `no parameter '${param}' (parameters: ${params.join(', ') || 'none'})`]);
      continue;
    }
    const list: ParamRule[] = [];
    for (const text of texts) {
      const rule = parseParamRule(text);
      if (rule) list.push(rule);
      else problems.push([param, `unknown rule '${text}' (rules: ${PARAM_RULE_FORMS.join(', ')})`]);
    }
    parsed.set(param, list);
  }
  const isLayer = (p: string) => parsed.get(p)?.some((r) => r.kind === 'layer_exists') ?? false;
  for (const [param, list] of parsed) {
    const kinds = new Set(list.map((r) => r.kind));
    for (const rule of list) {
      if (rule.kind === 'field_exists' || rule.kind === 'band_exists') {
        const ref = rule.layerParam;
        if (ref === param) problems.push([param, `'${rule.kind}:${ref}' names the parameter itself; name the layer parameter`]);
        else if (!params.includes(ref)) problems.push([param, `'${rule.kind}:${ref}' names no parameter '${ref}'`]);
        else if (!isLayer(ref)) problems.push([param, `'${rule.kind}:${ref}' needs 'layer_exists' on parameter '${ref}'`]);
      }
      if (ON_LAYER.has(rule.kind) && !kinds.has('layer_exists'))
        problems.push([param, `'${rule.kind}' needs 'layer_exists' on the same parameter`]);
    }
    if (kinds.has('field_numeric') && !kinds.has('field_exists'))
      problems.push([param, `'field_numeric' needs 'field_exists:<layer param>' too`]);
    const exclusive = ['raster', 'vector', 'table'].filter((k) => kinds.has(k as ParamRuleKind));
    if (exclusive.length > 1) problems.push([param, `a layer cannot be ${exclusive.join(' and ')} at once`]);
    if (kinds.has('geometry') && (kinds.has('raster') || kinds.has('table')))
      problems.push([param, `'geometry' applies to vector layers only`]);
  }
  return problems;
}

/**
 * Checks that each rule's parameter can hold what the rule reads, by the input's JSON Schema
 * properties: a layer or field name is text, a band a number (either may be a list of them).
 * A rule on a number "layer" would refuse every call; better refused at start-up.
 */
export function checkRuleTypes(
  rules: Readonly<Record<string, readonly string[]>>,
  properties: Readonly<Record<string, unknown>>,
): [string, string][] {
  const problems: [string, string][] = [];
  for (const [param, texts] of Object.entries(rules)) {
    const schema = properties[param];
    if (schema === undefined) continue; // checkParamRules names it
    const kinds = new Set(texts.map((t) => parseParamRule(t)?.kind));
    const needs = kinds.has('band_exists') ? 'number' : kinds.has('layer_exists') || kinds.has('field_exists') ? 'string' : null;
    if (needs && !accepts(schema, needs))
      problems.push([param, `its rules read ${needs === 'number' ? 'a band number' : 'a name'}, but the parameter takes no ${needs}`]);
  }
  return problems;
}

/** Whether a JSON Schema accepts values of `type` (directly, in a union, or as list items). */
function accepts(schema: unknown, type: 'string' | 'number'): boolean {
  if (typeof schema !== 'object' || schema === null) return schema === true;
  const s = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[]; items?: unknown };
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  const direct = types.includes(type) || (type === 'number' && types.includes('integer'));
  const union = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((sub) => accepts(sub, type));
  const listed = types.includes('array') && accepts(s.items, type);
  // No type at all (`{}`, unrepresentable): anything goes.
  return direct || union || listed || (types.length === 0 && !s.anyOf && !s.oneOf);
}

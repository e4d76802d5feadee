/**
 * The JSON Schema of a tool's parameters as the model reads it: the registry's full schema
 * (what the MCP server publishes and the definition hash covers) without the constraints that
 * cost prompt characters and tell a model nothing it needs to call well. Every call is still
 * validated against the full zod schema by the dispatcher, so nothing dropped here is unchecked:
 * - `minLength: 1` (an empty string is refused with the field named anyway);
 * - `maxLength` of 1,000 or more (a cap no sensible value reaches);
 * - bounds at JavaScript's safe integer limits (zod's `.int()` writes them);
 * - tuples (`prefixItems` + `items: false`) of one item type become `items` of that type with
 *   the same `minItems`/`maxItems` (also the only form some providers' strict modes accept);
 * - `propertyNames: {type: string}` and an empty `additionalProperties` (JSON keys are strings,
 *   and an open object is the default).
 * Issue 17: the first request (system prompt + tool schemas) must stay under 10,000 characters.
 */
export function modelSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(modelSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  const node = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'minLength' && value === 1) continue;
    if (key === 'maxLength' && typeof value === 'number' && value >= 1000) continue;
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && Math.abs(value) === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'propertyNames' && isStringType(value)) continue;
    if (key === 'additionalProperties' && isEmptyObject(value)) continue;
    out[key] = key === 'properties' || key === '$defs' || key === 'definitions' ? mapValues(value) : modelSchema(value);
  }
  return flattenTuple(out);
}

function mapValues(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, modelSchema(v)]));
}

/** `[number, number, number, number]` as `number[]` with its length bounds, when all items agree. */
function flattenTuple(node: Record<string, unknown>): Record<string, unknown> {
  const items = node.prefixItems;
  if (!Array.isArray(items) || node.items !== false || items.length === 0) return node;
  const first = JSON.stringify(items[0]);
  if (!items.every((item) => JSON.stringify(item) === first)) return node;
  const { prefixItems: _prefix, items: _closed, ...rest } = node;
  return { ...rest, items: items[0], minItems: items.length, maxItems: items.length };
}

function isStringType(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && (value as { type?: unknown }).type === 'string';
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

import { MAX_PARAMETERS_CHARS } from '../../src-shared/domain/lineage.js';

/** Longer strings are cut in the record (an SQL script, a pasted GeoJSON): their start says enough. */
const MAX_STRING_CHARS = 4_000;
const MAX_ARRAY_ITEMS = 500;
const MAX_DEPTH = 12;

/** Argument names whose values are never recorded. */
const SECRET_KEY = /^(.*[_-])?(pass(word|wd)?|secret|token|api[_-]?key|credentials?|authori[sz]ation|cookie)$/i;
/** URL query parameters whose values are never recorded. */
const SECRET_QUERY = /^(.*[_-])?(key|token|secret|password|passwd|sig|signature|auth|access[_-]?key|api[_-]?key)$/i;

/**
 * A text with what may be a secret taken out: a URL's `user:password@`, and the values of
 * query parameters named like keys or tokens (`?api_key=…` → `?api_key=REDACTED`). A lineage
 * is shared with the file; the person's credentials must not travel with it.
 */
export function withoutSecrets(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1')
    .replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (all, sep: string, name: string) =>
      SECRET_QUERY.test(name) ? `${sep}${name}=REDACTED` : all,
    );
}

/**
 * The arguments as lineage records them: secrets out, and cut to MAX_PARAMETERS_CHARS of JSON
 * — long strings shortened, long arrays cut, with `truncated` set so the record says so. Values
 * JSON cannot hold (undefined, functions) are dropped the way JSON.stringify drops them.
 */
export function recordedParameters(args: unknown): { parameters: unknown; truncated: boolean } {
  const state = { truncated: false };
  let parameters = clean(args, 0, state);
  let json = JSON.stringify(parameters) ?? 'null';
  if (json.length > MAX_PARAMETERS_CHARS) {
    // Still too large after shortening each part (many medium strings): keep the start of the JSON text.
    state.truncated = true;
    parameters = { truncated_json: json.slice(0, MAX_PARAMETERS_CHARS - 100) };
    json = JSON.stringify(parameters);
  }
  return { parameters, truncated: state.truncated };
}

function clean(value: unknown, depth: number, state: { truncated: boolean }): unknown {
  if (typeof value === 'string') {
    const safe = withoutSecrets(value);
    if (safe.length <= MAX_STRING_CHARS) return safe;
    state.truncated = true;
    return `${safe.slice(0, MAX_STRING_CHARS)}… [truncated: ${safe.length} characters]`;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value !== 'object') return undefined;
  if (depth >= MAX_DEPTH) {
    state.truncated = true;
    return '[truncated: nested too deep]';
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY_ITEMS) state.truncated = true;
    return value.slice(0, MAX_ARRAY_ITEMS).map((v) => clean(v, depth + 1, state) ?? null);
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_KEY.test(key) && v !== undefined && v !== null) out[key] = 'REDACTED';
    else {
      const c = clean(v, depth + 1, state);
      if (c !== undefined) out[key] = c;
    }
  }
  return out;
}

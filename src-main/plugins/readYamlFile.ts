import { readFileSync, statSync } from 'node:fs';
import { parseDocument } from 'yaml';

/**
 * Aliases a package's YAML may resolve in all. A few let a manifest share a block; an alias
 * bomb ("billion laughs") needs many and is refused before it is expanded.
 */
export const MAX_YAML_ALIASES = 50;

export type YamlRead = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Reads one YAML file of a plugin package, refusing what would cost too much: files above
 * `maxBytes` are not read at all, and aliases are counted as they are resolved. Never throws:
 * a plugin with a bad file is listed with the reason.
 */
export function readYamlFile(path: string, maxBytes: number): YamlRead {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) return { ok: false, reason: `is ${Math.ceil(size / 1024)} KiB; at most ${maxBytes / 1024} KiB` };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, reason: `cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  return parseYamlText(text);
}

export function parseYamlText(text: string): YamlRead {
  try {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
    const first = doc.errors[0];
    if (first) return { ok: false, reason: `is not valid YAML: ${first.message.split('\n')[0]}` };
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (e) {
    // toJS throws on an alias bomb ("Excessive alias count …") and on a dangling alias.
    return { ok: false, reason: `is refused: ${e instanceof Error ? e.message : String(e)}` };
  }
}

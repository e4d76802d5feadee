import { parse as parseYaml } from 'yaml';

/**
 * One SKILL.md, checked against the Agent Skills format (agentskills.io): YAML frontmatter
 * with `name` (the folder's name; lowercase letters, digits and single hyphens, at most 64)
 * and `description` (at most 1024 characters), optional `license`, `compatibility` (at most
 * 500), `metadata` (string values) and `allowed-tools`; then a Markdown body. Mapwright binds
 * tools through `metadata.tools`: tool ids separated by spaces or commas.
 *
 * Pure: no file access, so every rule is tested on text.
 */

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
/** Bodies must stay under this many lines; detail goes to `references/`. */
export const BODY_MAX_LINES = 500;

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const TOOL_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const KNOWN_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

export interface SkillFileProblem {
  /** `error`: the skill is not loaded. `warning`: it is loaded, with something to fix. */
  severity: 'error' | 'warning';
  message: string;
}

export interface ParsedSkill {
  name: string;
  description: string;
  body: string;
  /** Tool ids from `metadata.tools`, in the order written, without duplicates. */
  toolIds: string[];
  metadata: Record<string, string>;
  license: string | null;
  compatibility: string | null;
}

export type SkillFileResult = { ok: true; skill: ParsedSkill; problems: SkillFileProblem[] } | { ok: false; problems: SkillFileProblem[] };

/** Splits `---\n<yaml>\n---\n<body>`; null when the file does not open with frontmatter. */
export function splitFrontmatter(text: string): { yaml: string; body: string } | null {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (lines[0]?.trimEnd() !== '---') return null;
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (close < 0) return null;
  return { yaml: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n') };
}

export function parseSkillFile(folderName: string, text: string): SkillFileResult {
  const problems: SkillFileProblem[] = [];
  const error = (message: string) => problems.push({ severity: 'error', message });
  const warn = (message: string) => problems.push({ severity: 'warning', message });

  const parts = splitFrontmatter(text);
  if (!parts) {
    error("SKILL.md must start with YAML frontmatter between '---' lines");
    return { ok: false, problems };
  }
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (e) {
    error(`frontmatter is not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    return { ok: false, problems };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    error('frontmatter must be a YAML mapping (key: value lines)');
    return { ok: false, problems };
  }
  const fm = data as Record<string, unknown>;

  const name = fm.name;
  if (typeof name !== 'string' || name === '') error("'name' is required");
  else {
    if (name.length > NAME_MAX) error(`'name' is ${name.length} characters; at most ${NAME_MAX}`);
    if (!NAME.test(name)) error(`'name' "${name}" may hold only lowercase letters, digits and single hyphens, not at the start or end`);
    if (name !== folderName) error(`'name' "${name}" must equal its folder's name "${folderName}"`);
  }

  const description = fm.description;
  if (typeof description !== 'string' || description.trim() === '')
    error("'description' is required: what the skill is for and when to use it");
  else if (description.length > DESCRIPTION_MAX) error(`'description' is ${description.length} characters; at most ${DESCRIPTION_MAX}`);

  const license = optionalString(fm, 'license', error);
  const compatibility = optionalString(fm, 'compatibility', error);
  if (compatibility && compatibility.length > COMPATIBILITY_MAX)
    error(`'compatibility' is ${compatibility.length} characters; at most ${COMPATIBILITY_MAX}`);

  const metadata: Record<string, string> = {};
  if (fm.metadata !== undefined) {
    if (!fm.metadata || typeof fm.metadata !== 'object' || Array.isArray(fm.metadata))
      error("'metadata' must be a mapping of keys to strings");
    else {
      for (const [key, value] of Object.entries(fm.metadata as Record<string, unknown>)) {
        if (typeof value === 'string') metadata[key] = value;
        else error(`'metadata.${key}' must be a string (the standard keeps metadata values as text)`);
      }
    }
  }
  const toolIds = [...new Set((metadata.tools ?? '').split(/[\s,]+/).filter(Boolean))];
  for (const id of toolIds) {
    if (!TOOL_ID.test(id)) error(`'metadata.tools' entry "${id}" is not a tool id (namespace.name)`);
  }

  if (fm['allowed-tools'] !== undefined) warn("'allowed-tools' is ignored: Mapwright binds a skill's tools through 'metadata.tools'");
  for (const key of Object.keys(fm)) {
    if (!KNOWN_FIELDS.has(key)) warn(`unknown frontmatter field '${key}' is ignored (put custom fields under 'metadata')`);
  }

  const body = parts.body.trim();
  const lines = body === '' ? 0 : body.split('\n').length;
  if (lines >= BODY_MAX_LINES) error(`the body has ${lines} lines; keep it under ${BODY_MAX_LINES} and move detail to references/`);
  if (body === '') warn('the body is empty: loading this skill brings no instructions');

  if (problems.some((p) => p.severity === 'error')) return { ok: false, problems };
  return {
    ok: true,
    problems,
    skill: {
      name: name as string,
      description: (description as string).trim(),
      body,
      toolIds,
      metadata,
      license,
      compatibility,
    },
  };
}

function optionalString(fm: Record<string, unknown>, key: string, error: (m: string) => void): string | null {
  const value = fm[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    error(`'${key}' must be a string`);
    return null;
  }
  return value;
}

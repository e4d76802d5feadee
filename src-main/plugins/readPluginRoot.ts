import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatIssues, formatPath } from '../../src-shared/plugins/manifestProblems.js';
import { checkPluginManifest, pluginParametersSchema, type PluginManifest } from '../../src-shared/plugins/pluginManifest.js';
import { checkPluginTestFile, testCaseLabel, type PluginTestCase } from '../../src-shared/plugins/pluginTestCase.js';
import type { SkillOrigin } from '../skills/readSkillRoot.js';
import { manifestFileProblems, packageFileProblem } from './packagePaths.js';
import { readYamlFile } from './readYamlFile.js';

/** Plugins come from the same three places as skills, with the same precedence. */
export type PluginOrigin = SkillOrigin;

/** A self-test case with the file it came from (`tests/greet.yaml`). */
export type PluginSelfTest = PluginTestCase & { file: string };

/** One plugin folder as read: listed even when broken, so the panel can say why. */
export interface PluginEntry {
  /** From the manifest; for a manifest too broken to say, the folder's name. */
  namespace: string;
  /** From the manifest; '' when it gives none. */
  version: string;
  /** The plugin's folder (absolute). */
  dir: string;
  origin: PluginOrigin;
  state: 'available' | 'unavailable';
  /** Why it is unavailable, each naming its file and culprit; empty when available. */
  reasons: string[];
  /** Present when plugin.yaml passed its check. */
  manifest?: PluginManifest;
  tests: PluginSelfTest[];
  /** Names of its `skills/<name>/SKILL.md` folders. */
  skills: string[];
  /** Whether it has a README.md. */
  readme: boolean;
}

export const MAX_MANIFEST_BYTES = 256 * 1024;
export const MAX_TEST_FILE_BYTES = 64 * 1024;
export const MAX_TEST_FILES = 50;

/**
 * Reads every `<root>/<folder>/plugin.yaml`. Several versions of one namespace may sit side by
 * side in folders of any name (`hello`, `hello-2.0.0`). Runs nothing and never throws; a
 * missing root is simply empty.
 */
export function readPluginRoot(root: string, origin: PluginOrigin): PluginEntry[] {
  if (!existsSync(root)) return [];
  let folders: string[];
  try {
    folders = readdirSync(root, { withFileTypes: true })
      // A symlinked plugin folder is allowed (a developer linking their work copy); its files
      // are then checked against the folder it points to.
      .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || (e.isSymbolicLink() && isDir(join(root, e.name)))))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
  return folders.map((folder) => readPluginFolder(join(root, folder), origin));
}

export function readPluginFolder(dir: string, origin: PluginOrigin): PluginEntry {
  const entry: PluginEntry = {
    namespace: basename(dir),
    version: '',
    dir,
    origin,
    state: 'unavailable',
    reasons: [],
    tests: [],
    skills: listSkills(dir),
    readme: existsSync(join(dir, 'README.md')),
  };
  const fail = (reasons: string[]): PluginEntry => ({ ...entry, reasons });

  const where = packageFileProblem(dir, 'plugin.yaml');
  if (where) return fail([existsSync(join(dir, 'plugin.yaml')) ? `plugin.yaml: ${where}` : 'no plugin.yaml in this folder']);
  const read = readYamlFile(join(dir, 'plugin.yaml'), MAX_MANIFEST_BYTES);
  if (!read.ok) return fail([`plugin.yaml ${read.reason}`]);
  // Name a broken plugin as it meant to be named, so it sits beside its other versions.
  const raw = (read.value ?? {}) as Record<string, unknown>;
  if (typeof raw.namespace === 'string' && /^[a-z0-9_]{1,64}$/.test(raw.namespace)) entry.namespace = raw.namespace;
  if (typeof raw.version === 'string' && raw.version.length <= 100) entry.version = raw.version;

  const checked = checkPluginManifest(read.value);
  if (!checked.ok) return fail(checked.problems.map((p) => `plugin.yaml: ${p}`));
  const manifest = checked.manifest;
  const tests = readTests(dir, manifest);
  const reasons = [...manifestFileProblems(manifest, dir).map((p) => `plugin.yaml: ${p}`), ...tests.problems];
  return { ...entry, manifest, tests: tests.cases, reasons, state: reasons.length ? 'unavailable' : 'available' };
}

/** `tests/*.yaml`: each case must call a tool of this plugin, and a case expecting success must pass its parameters. */
function readTests(dir: string, manifest: PluginManifest): { cases: PluginSelfTest[]; problems: string[] } {
  const files = listFiles(join(dir, 'tests')).filter((f) => /\.ya?ml$/.test(f));
  const cases: PluginSelfTest[] = [];
  const problems: string[] = [];
  if (files.length > MAX_TEST_FILES) return { cases, problems: [`tests: ${files.length} files; at most ${MAX_TEST_FILES}`] };
  for (const name of files) {
    const file = `tests/${name}`;
    const where = packageFileProblem(dir, file);
    if (where) {
      problems.push(`${file}: ${where}`);
      continue;
    }
    const read = readYamlFile(join(dir, file), MAX_TEST_FILE_BYTES);
    if (!read.ok) {
      problems.push(`${file} ${read.reason}`);
      continue;
    }
    const checked = checkPluginTestFile(read.value, file);
    if (!checked.ok) {
      problems.push(...checked.problems);
      continue;
    }
    checked.cases.forEach((c, i) => {
      const at = (key: string) => `${file}: ${formatPath([key], testCaseLabel(read.value, i))}`;
      const tool = manifest.tools.find((t) => t.name === c.tool);
      if (!tool) {
        problems.push(`${at('tool')}: '${c.tool}' is not a tool of this plugin (tools: ${manifest.tools.map((t) => t.name).join(', ')})`);
        return;
      }
      if ('ok' in c.expect) {
        const args = pluginParametersSchema(tool).safeParse(c.arguments);
        if (!args.success)
          problems.push(
            ...formatIssues(args.error.issues, formatPath(['arguments'], testCaseLabel(read.value, i))).map((p) => `${file}: ${p}`),
          );
      }
      cases.push({ ...c, file });
    });
  }
  return { cases, problems };
}

/** Skill folders holding a SKILL.md (real files only: a link could point anywhere). */
function listSkills(dir: string): string[] {
  const root = join(dir, 'skills');
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && packageFileProblem(dir, `skills/${e.name}/SKILL.md`) === null)
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

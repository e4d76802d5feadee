import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSkillFile, type ParsedSkill } from './skillFile.js';

/** Where a skill comes from; later origins override earlier ones of the same name. */
export type SkillOrigin = 'built-in' | 'user' | 'project';
export const ORIGIN_PRIORITY: readonly SkillOrigin[] = ['built-in', 'user', 'project'];

export interface Skill extends ParsedSkill {
  origin: SkillOrigin;
  /** The skill's folder (absolute). */
  dir: string;
  /** File names in its `references/` folder, readable on demand. */
  references: string[];
}

export interface SkillProblem {
  /** The folder name: a bad skill is reported by the name it would have had. */
  skill: string;
  origin: SkillOrigin;
  file: string;
  severity: 'error' | 'warning';
  message: string;
}

/** Larger SKILL.md files are not read at all (a body must stay under 500 lines anyway). */
const MAX_SKILL_BYTES = 256 * 1024;

/**
 * Reads every `<root>/<name>/SKILL.md`. Never throws for a bad skill: problems are returned
 * by name, and the good skills load. A missing root is simply empty.
 */
export function readSkillRoot(root: string, origin: SkillOrigin): { skills: Skill[]; problems: SkillProblem[] } {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  if (!existsSync(root)) return { skills, problems };
  let entries: string[];
  try {
    entries = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    problems.push({ skill: '(folder)', origin, file: root, severity: 'error', message: `cannot list the folder: ${message(e)}` });
    return { skills, problems };
  }
  for (const folder of entries) {
    const dir = join(root, folder);
    const file = join(dir, 'SKILL.md');
    const report = (severity: SkillProblem['severity'], text: string) =>
      problems.push({ skill: folder, origin, file, severity, message: text });
    if (!existsSync(file)) {
      report('warning', 'no SKILL.md in this folder');
      continue;
    }
    let text: string;
    try {
      if (statSync(file).size > MAX_SKILL_BYTES) {
        report('error', `SKILL.md is larger than ${MAX_SKILL_BYTES / 1024} KiB`);
        continue;
      }
      text = readFileSync(file, 'utf8');
    } catch (e) {
      report('error', `cannot read SKILL.md: ${message(e)}`);
      continue;
    }
    const parsed = parseSkillFile(folder, text);
    for (const p of parsed.problems) report(p.severity, p.message);
    if (parsed.ok) skills.push({ ...parsed.skill, origin, dir, references: listReferences(dir) });
  }
  return { skills, problems };
}

function listReferences(dir: string): string[] {
  const refs = join(dir, 'references');
  try {
    return readdirSync(refs, { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInTools } from '../tools/index.js';
import { FIRST_REQUEST_LIMIT, NO_SKILL_PROMPT_LIMIT, PromptSizes } from '../src-main/agent/promptSizes.js';
import { DEFAULT_CONVERSATION_SETTINGS } from '../src-main/conversations/conversationSettings.js';
import { SkillCatalogue } from '../src-main/skills/skillCatalogue.js';

/**
 * `npm run prompt-report`: the size in characters of what each request carries at each stage
 * of progressive disclosure (src-main/agent/promptSizes.ts), for an empty project. Exits 1 when
 * the no-skill prompt or the first request passes its limit, or a skill has an error.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const catalogue = new SkillCatalogue([{ dir: join(root, 'skills'), origin: 'built-in' }]);
const sizes = new PromptSizes(catalogue, builtInTools);
const rows = sizes.stages().map((s) => sizes.measure(s));

const pad = (s: string | number, n: number) => String(s).padStart(n);
const lines = [
  'Prompt size per stage, in characters (empty project; each layer adds one line of ~60-90):',
  '',
  `${'stage'.padEnd(22)}${pad('system', 8)}${pad('+skills', 9)}${pad('prompt', 8)}${pad('tools', 7)}${pad('schemas', 9)}${pad('total', 8)}${pad('tool share', 12)}`,
  ...rows.map(
    (r) =>
      `${r.label.padEnd(22)}${pad(r.system, 8)}${pad(r.bodies, 9)}${pad(r.prompt, 8)}${pad(r.toolCount, 7)}${pad(r.toolChars, 9)}${pad(r.total, 8)}${pad(`${((100 * r.toolChars) / r.total).toFixed(1)} %`, 12)}`,
  ),
  '',
  `Context budget: ${DEFAULT_CONVERSATION_SETTINGS.contextChars} characters (MAPWRIGHT_CONTEXT_CHARS); the "all" stage uses ${((100 * rows.at(-1)!.total) / DEFAULT_CONVERSATION_SETTINGS.contextChars).toFixed(1)} % of it before any message.`,
];
const noSkill = rows.find((r) => r.label === 'no skill')!;
const first = rows.find((r) => r.label === 'inspect')!;
lines.push(
  `No-skill stage: ${noSkill.system} characters (limit ${NO_SKILL_PROMPT_LIMIT}): ${noSkill.system <= NO_SKILL_PROMPT_LIMIT ? 'ok' : 'OVER'}.`,
);
lines.push(
  `First request (system prompt + tool schemas, inspect stage): ${first.total} characters (limit ${FIRST_REQUEST_LIMIT}): ${first.total < FIRST_REQUEST_LIMIT ? 'ok' : 'OVER'}.`,
);
const unclaimed = sizes.unclaimed();
if (unclaimed.length) lines.push(`Tools no skill claims (offered at every stage): ${unclaimed.join(', ')}`);
for (const p of catalogue.problems()) lines.push(`Skill ${p.skill} (${p.origin}) ${p.severity}: ${p.message}`);
process.stdout.write(`${lines.join('\n')}\n`);
if (
  noSkill.system > NO_SKILL_PROMPT_LIMIT ||
  first.total >= FIRST_REQUEST_LIMIT ||
  catalogue.problems().some((p) => p.severity === 'error')
)
  process.exitCode = 1;

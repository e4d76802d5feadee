import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDefinition } from '../src-shared/tools/toolSdk.js';
import { builtInTools } from '../tools/index.js';
import { createLoadSkillTool } from '../tools/skills/loadSkill.js';
import { buildSystemPrompt } from '../src-main/agent/systemPrompt.js';
import { DEFAULT_CONVERSATION_SETTINGS } from '../src-main/conversations/conversationSettings.js';
import { SkillCatalogue } from '../src-main/skills/skillCatalogue.js';
import { SkillSession } from '../src-main/skills/skillSession.js';
import { ToolRegistry } from '../src-main/tool-host/toolRegistry.js';

/**
 * `npm run prompt-report`: the size in characters of what each request carries at each stage
 * of progressive disclosure — no skill, inspect (how every run starts), inspect plus each other
 * skill, all — for an empty project. "prompt" is the system prompt plus the instructions of
 * skills loaded with skills_load_skill (they arrive as tool results); "tools" is the JSON of
 * the tool list as sent (name, description, parameters).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const catalogue = new SkillCatalogue([{ dir: join(root, 'skills'), origin: 'built-in' }]);
const registry = new ToolRegistry([...builtInTools, createLoadSkillTool(catalogue) as unknown as ToolDefinition]);
catalogue.checkToolsAgainst(() => new Set(registry.all().map((t) => t.def.id)));

interface Stage {
  label: string;
  preloaded: string[];
  loaded: string[];
}

function measure(stage: Stage) {
  const session = new SkillSession(catalogue, stage.preloaded);
  for (const name of stage.loaded) session.load(name);
  const system = buildSystemPrompt({
    catalogue: catalogue.list(),
    preloaded: session.preloaded(),
    project: { name: 'Untitled project', layers: [], view: null },
    language: DEFAULT_CONVERSATION_SETTINGS.language,
  });
  const bodies = stage.loaded
    .filter((n) => !stage.preloaded.includes(n))
    .reduce((sum, n) => sum + JSON.stringify({ skill: n, instructions: catalogue.find(n)?.body ?? '' }).length, 0);
  const tools = session.modelTools(registry.forModel({ offered: session.offeredToolIds(registry) }));
  const toolChars = JSON.stringify(tools).length;
  const prompt = system.length + bodies;
  return { label: stage.label, system: system.length, bodies, prompt, toolCount: tools.length, toolChars, total: prompt + toolChars };
}

const others = catalogue.names().filter((n) => n !== 'inspect');
const stages: Stage[] = [
  { label: 'no skill', preloaded: [], loaded: [] },
  { label: 'inspect', preloaded: ['inspect'], loaded: [] },
  ...others.map((n) => ({ label: `inspect + ${n}`, preloaded: ['inspect'], loaded: [n] })),
  { label: 'all', preloaded: ['inspect'], loaded: others },
];
const rows = stages.map(measure);

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
const noSkill = rows[0]!;
const LIMIT = 2200;
lines.push(`No-skill stage: ${noSkill.system} characters (limit ${LIMIT}): ${noSkill.system <= LIMIT ? 'ok' : 'OVER'}.`);
const claimed = new Set(catalogue.list().flatMap((s) => s.toolIds));
const unclaimed = registry.forModel().filter((t) => !claimed.has(t.def.id) && t.def.id !== 'skills.load_skill');
if (unclaimed.length) lines.push(`Tools no skill claims (offered at every stage): ${unclaimed.map((t) => t.wireName).join(', ')}`);
for (const p of catalogue.problems()) lines.push(`Skill ${p.skill} (${p.origin}) ${p.severity}: ${p.message}`);
process.stdout.write(`${lines.join('\n')}\n`);
if (noSkill.system > LIMIT || catalogue.problems().some((p) => p.severity === 'error')) process.exitCode = 1;

import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { createLoadSkillTool } from '../../tools/skills/loadSkill.js';
import { DEFAULT_CONVERSATION_SETTINGS } from '../conversations/conversationSettings.js';
import type { SkillCatalogue } from '../skills/skillCatalogue.js';
import { SkillSession } from '../skills/skillSession.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { buildSystemPrompt } from './systemPrompt.js';

/** The system prompt alone at the no-skill stage (its catalogue lines and rules). */
export const NO_SKILL_PROMPT_LIMIT = 2200;
/**
 * Issue 17: the first request of every run — the system prompt with the always-loaded skill
 * plus the schemas of the tools offered then — stays under this many characters, so a small
 * local model's context is left to the conversation.
 */
export const FIRST_REQUEST_LIMIT = 10_000;

export interface PromptStage {
  label: string;
  /** Skills whose bodies are in the system prompt. */
  preloaded: string[];
  /** Skills loaded with skills_load_skill (their bodies arrive as tool results). */
  loaded: string[];
}

export interface StageSize {
  label: string;
  system: number;
  bodies: number;
  prompt: number;
  toolCount: number;
  toolChars: number;
  total: number;
}

/**
 * What a request carries at each stage of progressive disclosure for an empty project: the
 * system prompt, the loaded skills' instructions and the JSON of the tool list as sent (name,
 * description, parameters as the model reads them).
 */
export class PromptSizes {
  private readonly registry: ToolRegistry;

  constructor(
    private readonly catalogue: SkillCatalogue,
    tools: readonly ToolDefinition[],
  ) {
    this.registry = new ToolRegistry([...tools, createLoadSkillTool(catalogue) as unknown as ToolDefinition]);
    catalogue.checkToolsAgainst(() => new Set(this.registry.all().map((t) => t.def.id)));
  }

  /** No skill, inspect (how every run starts), inspect plus each other skill, all. */
  stages(): PromptStage[] {
    const others = this.catalogue.names().filter((n) => n !== 'inspect');
    return [
      { label: 'no skill', preloaded: [], loaded: [] },
      { label: 'inspect', preloaded: ['inspect'], loaded: [] },
      ...others.map((n) => ({ label: `inspect + ${n}`, preloaded: ['inspect'], loaded: [n] })),
      { label: 'all', preloaded: ['inspect'], loaded: others },
    ];
  }

  measure(stage: PromptStage): StageSize {
    const session = new SkillSession(this.catalogue, stage.preloaded);
    for (const name of stage.loaded) session.load(name);
    const system = buildSystemPrompt({
      catalogue: this.catalogue.list(),
      preloaded: session.preloaded(),
      project: { name: 'Untitled project', layers: [], view: null },
      language: DEFAULT_CONVERSATION_SETTINGS.language,
    });
    const bodies = stage.loaded
      .filter((n) => !stage.preloaded.includes(n))
      .reduce((sum, n) => sum + JSON.stringify({ skill: n, instructions: this.catalogue.find(n)?.body ?? '' }).length, 0);
    const tools = session.modelTools(this.registry.forModel({ offered: session.offeredToolIds(this.registry) }));
    const toolChars = JSON.stringify(tools).length;
    const prompt = system.length + bodies;
    return { label: stage.label, system: system.length, bodies, prompt, toolCount: tools.length, toolChars, total: prompt + toolChars };
  }

  /** Wire names of model tools no skill claims (offered at every stage). */
  unclaimed(): string[] {
    const claimed = new Set(this.catalogue.list().flatMap((s) => s.toolIds));
    return this.registry
      .forModel()
      .filter((t) => !claimed.has(t.def.id) && t.def.id !== 'skills.load_skill')
      .map((t) => t.wireName);
  }
}

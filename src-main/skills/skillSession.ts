import type { ChatMessage } from '../../src-shared/domain/chat.js';
import { LOAD_SKILL_ID, loadSkillParameters } from '../../tools/skills/loadSkill.js';
import type { ModelTool } from '../model/modelClient.js';
import type { RegisteredTool, ToolRegistry } from '../tool-host/toolRegistry.js';
import { modelSchema } from '../tool-host/modelSchema.js';
import type { Skill } from './readSkillRoot.js';

/** Skills loaded at the start of every run (DESIGN §5: `inspect` is always loaded). */
export const ALWAYS_LOADED: readonly string[] = ['inspect'];

export interface SkillSource {
  list(): Skill[];
  find(name: string): Skill | undefined;
  names(): string[];
}

/**
 * The skills one run has loaded, and so the tools the model is offered (progressive
 * disclosure): the tools of loaded skills, `skills_load_skill` itself, and any tool that no
 * skill claims (a new tool without a skill is offered rather than hidden). A skill counts as
 * loaded once a `skills_load_skill` call for it succeeded in this run; it stays loaded until
 * the run ends.
 */
export class SkillSession {
  private readonly loadedNames = new Set<string>();

  constructor(
    private readonly skills: SkillSource,
    private readonly alwaysLoaded: readonly string[] = ALWAYS_LOADED,
  ) {
    for (const name of alwaysLoaded) this.loadedNames.add(name);
  }

  /** The always-loaded skills that exist: their instructions are part of the system prompt. */
  preloaded(): Skill[] {
    return this.skills.list().filter((s) => this.alwaysLoaded.includes(s.name));
  }

  /** Marks a skill loaded; false when the catalogue has no such skill. */
  load(name: string): boolean {
    if (!this.skills.find(name)) return false;
    this.loadedNames.add(name);
    return true;
  }

  /** Picks up the skills loaded by successful `skills_load_skill` cards among `messages`. */
  noteMessages(messages: readonly ChatMessage[]): void {
    for (const m of messages) {
      const card = m.tool;
      if (card?.toolId !== LOAD_SKILL_ID || card.status !== 'ok' || !card.result?.ok) continue;
      const data = card.result.data as { skill?: unknown; instructions?: unknown };
      // A reference read does not load the skill; only the instructions do.
      if (typeof data.skill === 'string' && typeof data.instructions === 'string') this.load(data.skill);
    }
  }

  /** Loaded skills that exist in the catalogue, in catalogue order. */
  loaded(): Skill[] {
    return this.skills.list().filter((s) => this.loadedNames.has(s.name));
  }

  isLoaded(name: string): boolean {
    return this.loadedNames.has(name) && !!this.skills.find(name);
  }

  /** Ids of the registered tools to offer now. */
  offeredToolIds(registry: Pick<ToolRegistry, 'all'>): Set<string> {
    const claimed = new Set(this.skills.list().flatMap((s) => s.toolIds));
    const fromLoaded = new Set(this.loaded().flatMap((s) => s.toolIds));
    const ids = new Set<string>();
    for (const t of registry.all()) {
      const id = t.def.id;
      if (id === LOAD_SKILL_ID || fromLoaded.has(id) || !claimed.has(id)) ids.add(id);
    }
    return ids;
  }

  /** As the model sees them; `skills_load_skill` gets the live enum of skill names. */
  modelTools(tools: readonly RegisteredTool[]): ModelTool[] {
    return tools.map((t) => ({
      name: t.wireName,
      description: t.def.description,
      parameters:
        t.def.id === LOAD_SKILL_ID ? loadSkillParameters(this.skills.names()) : (modelSchema(t.inputSchema) as ModelTool['parameters']),
    }));
  }
}

import { z } from 'zod';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool, wireName } from '../../src-shared/tools/toolSdk.js';

/** What the tool reads: the skill catalogue, implemented in main (src-main/skills). */
export interface SkillLibrary {
  names(): string[];
  find(name: string): { name: string; body: string; toolIds: readonly string[]; references: readonly string[] } | undefined;
  /** The text of a file in the skill's `references/`, or null if the skill has no such file. */
  readReference(name: string, file: string): string | null;
}

export const LOAD_SKILL_ID = 'skills.load_skill';

const DESCRIPTION =
  'Loads a skill of the catalogue: returns its instructions and adds its tools for this run. With reference, ' +
  'returns that file of its references instead.';

/**
 * The model sees `name` as an enum of the skills that exist now; skills hot-load, so this
 * schema is built per request (see SkillSession) while the registered one takes any string
 * and the handler names the valid choices.
 */
export function loadSkillParameters(names: readonly string[]): Record<string, unknown> {
  const schema = z.object({
    name: (names.length ? z.enum(names as [string, ...string[]]) : z.string()).describe('Skill name'),
    reference: z.string().optional().describe('A reference file name'),
  });
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Built at start-up with the catalogue it reads; registered like any other tool. */
export function createLoadSkillTool(library: SkillLibrary) {
  return defineTool({
    id: LOAD_SKILL_ID,
    version: '1.0.0',
    group: 'skills',
    icon: 'search',
    title: 'Load skill',
    description: DESCRIPTION,
    input: z.object({
      name: z.string().min(1).describe('Skill name'),
      reference: z.string().min(1).optional().describe('A reference file name'),
    }),
    safety: 'read',
    exec: 'main',
    handles: [],
    // An internal step of the agent, not a GUI action.
    userVisible: false,
    summary: (a) => (a.reference ? `Read ${a.reference} of skill ${a.name}` : `Load skill ${a.name}`),
    async execute(args) {
      const skill = library.find(args.name);
      if (!skill) {
        const names = library.names();
        throw new ToolFailure('invalid_params', `There is no skill '${args.name}'.`, false, `Skills: ${names.join(', ') || '(none)'}.`);
      }
      if (args.reference) {
        const text = library.readReference(skill.name, args.reference);
        if (text === null) {
          const refs = skill.references.join(', ') || '(none)';
          throw new ToolFailure(
            'invalid_params',
            `Skill '${skill.name}' has no reference '${args.reference}'.`,
            false,
            `Its references: ${refs}.`,
          );
        }
        return { skill: skill.name, reference: args.reference, text };
      }
      return {
        skill: skill.name,
        instructions: skill.body,
        tools_added: skill.toolIds.map(wireName),
        references: skill.references.length ? skill.references : undefined,
      };
    },
  });
}

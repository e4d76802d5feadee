import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { RecipeInputId, type RecipeProgress } from '../../src-shared/domain/recipe.js';
import { ToolFailure, type ToolResult } from '../../src-shared/tools/toolResult.js';
import { defineCommand, type CommandDefinition } from '../../src-shared/tools/toolSdk.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { ToolRegistry } from '../tool-host/toolRegistry.js';
import { buildRecipe } from './buildRecipe.js';
import { readRecipe, writeRecipe } from './recipeFiles.js';
import { replayRecipe, type RecipeStepCall } from './replayRecipe.js';

export interface RecipeCommandDeps {
  store: ProjectStore;
  registry: Pick<ToolRegistry, 'find'>;
  /** `<project>-outputs/recipes`, for the project open now. */
  recipesDir(): string;
  runIsLive(): boolean;
  /**
   * Runs one recipe step through the dispatcher as the person's replay: judged like a call of
   * the model (`ToolDispatcher`'s `recipeStep`), so it asks as any change does.
   */
  dispatchStep(
    call: RecipeStepCall,
    ctx: { runId: string; signal: AbortSignal; onProgress(fraction: number, message: string): void },
  ): Promise<{ result: ToolResult; loadedLayers: string[] }>;
  progress(p: RecipeProgress): void;
  /** A line for the person in the conversation (never sent to the model). */
  note(text: string, level: 'info' | 'error'): void;
}

/** The most audit rows a conversation's recipe reads. */
const MAX_ROWS = 20_000;

/**
 * The recipe Commands (issue 17): export the current conversation's changes, replay a recipe of
 * the outputs folder on other layers, stop a replay. Person only, like every Command.
 */
export function buildRecipeCommands(d: RecipeCommandDeps): CommandDefinition[] {
  let replay: AbortController | null = null;

  const exportRecipe = defineCommand({
    id: 'recipes.export',
    title: 'Export recipe',
    input: z.object({
      conversationId: z.string().min(1).max(100).optional(),
      name: z.string().trim().min(1).max(60).optional(),
    }),
    async run(args) {
      const conversationId = args.conversationId ?? d.store.conversationId;
      const conversation = d.store.conversations.get(conversationId);
      if (!conversation)
        throw new ToolFailure('invalid_params', 'This conversation has nothing saved yet: there is nothing to export.', false);
      const rows = d.store.audit.list({ conversationId, limit: MAX_ROWS }).reverse();
      const recipe = buildRecipe({
        name: args.name ?? conversation.title,
        createdAt: new Date().toISOString(),
        rows,
        layers: d.store.layers.list(),
        tool: (id) => {
          const def = d.registry.find(id)?.def;
          return def ? { safety: def.safety, ...(def.caller ? { caller: def.caller } : {}) } : null;
        },
      });
      const written = writeRecipe(d.recipesDir(), recipe);
      return {
        recipe: written.recipe,
        script: written.script,
        steps: recipe.steps.length,
        inputs: recipe.inputs.map((i) => i.id),
        script_steps: written.scriptSteps,
        skipped: recipe.skipped,
      };
    },
  });

  const runRecipe = defineCommand({
    id: 'recipes.run',
    title: 'Run recipe',
    input: z.object({
      file: z.string().min(1).max(200),
      inputs: z.record(RecipeInputId, z.string().min(1).max(300)),
    }),
    async run(args) {
      if (d.runIsLive()) throw new ToolFailure('not_allowed', 'The agent is working; wait for it to finish or press Stop first.', false);
      if (replay) throw new ToolFailure('not_allowed', 'A recipe is already running; wait for it or stop it first.', false);
      const recipe = readRecipe(d.recipesDir(), args.file);
      const controller = new AbortController();
      replay = controller;
      // One run id for the replay: "Revert this turn" takes back every step of it.
      const runId = `recipe-${randomUUID()}`;
      try {
        const report = await replayRecipe(recipe, args.inputs, {
          dispatch: (call) =>
            d.dispatchStep(call, {
              runId,
              signal: controller.signal,
              // The step's own progress (a long buffer), for the panel's status line.
              onProgress: (fraction, message) =>
                d.progress({
                  file: args.file,
                  step: call.step,
                  count: call.count,
                  tool: call.tool,
                  title: call.title,
                  status: 'running',
                  message: `${call.label}: ${message} (${Math.round(fraction * 100)} %)`,
                }),
            }),
          tool: (id) => {
            const t = d.registry.find(id);
            return t ? { version: t.def.version, definitionHash: t.definitionHash, title: t.def.title } : null;
          },
          layer: (ref) => {
            const l = d.store.layers.list().find((x) => x.id === ref || x.name === ref);
            return l ? { id: l.id, name: l.name } : null;
          },
          progress: (p) => {
            d.progress({ ...p, file: args.file });
            if (p.status !== 'running') d.note(p.message, p.status === 'failed' ? 'error' : 'info');
          },
        });
        return { recipe: recipe.name, steps: report.steps, layers: report.layers };
      } finally {
        replay = null;
      }
    },
  });

  const stopRecipe = defineCommand({
    id: 'recipes.stop',
    title: 'Stop recipe',
    input: z.object({}),
    async run() {
      const running = replay;
      running?.abort();
      return { stopped: running !== null };
    },
  });

  return [exportRecipe, runRecipe, stopRecipe];
}

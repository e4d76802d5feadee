import { z } from 'zod';
import { LayerKind } from './layer.js';

/**
 * A recipe (issue 17): the successful changes of a conversation, in order, with the layers they
 * worked on replaced by placeholders, so Mapwright can replay them on other inputs. A recipe is
 * a file a person may have been sent: everything in it is untrusted and checked here, then each
 * step passes the dispatcher (validation, capability checks, approval) like any other call.
 */

/** `input1`, `input2`…: the layers a person maps to project layers before a replay. */
export const RecipeInputId = z.string().regex(/^input[1-9]\d{0,2}$/, "an input id such as 'input1'");

/** Stands for a layer in a step's arguments: one of the recipe's inputs. */
export const InputPlaceholder = z.object({ $input: RecipeInputId }).strict();
/** Stands for a layer an earlier step produced (`layer`: which of its outputs, from 0). */
export const StepPlaceholder = z.object({ $step: z.number().int().min(1), layer: z.number().int().min(0).max(99) }).strict();
export const LayerPlaceholder = z.union([InputPlaceholder, StepPlaceholder]);
export type LayerPlaceholder = z.infer<typeof LayerPlaceholder>;

export const RecipeInput = z.object({
  id: RecipeInputId,
  /** The name of the layer the recipe was made on: a hint for the person, never looked up. */
  from: z.string().max(300),
  /** null: the layer was gone from the project when the recipe was made. */
  kind: LayerKind.nullable(),
  geometry: z.string().max(60).nullable().optional(),
});
export type RecipeInput = z.infer<typeof RecipeInput>;

export const RecipeStep = z.object({
  /** A tool id (`namespace.name`). */
  tool: z.string().regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, "a tool id such as 'processing.run'"),
  version: z.string().max(40),
  /** The tool's definition hash when the recipe was made: a changed tool is still run, and the dialog says so. */
  definitionHash: z.string().max(128),
  /** The validated arguments that ran, with layers as placeholders. */
  args: z.record(z.string(), z.unknown()),
});
export type RecipeStep = z.infer<typeof RecipeStep>;

/** A successful change of the conversation that a recipe cannot replay, and why. */
export const RecipeSkipped = z.object({ tool: z.string().max(200), reason: z.string().max(500) });
export type RecipeSkipped = z.infer<typeof RecipeSkipped>;

const RecipeShape = z.object({
  format: z.literal('mapwright-recipe'),
  version: z.literal(1),
  name: z.string().min(1).max(120),
  createdAt: z.string().max(40),
  inputs: z.array(RecipeInput).max(50),
  steps: z.array(RecipeStep).min(1).max(200),
  skipped: z.array(RecipeSkipped).max(1000).default([]),
});

/** Every placeholder in `value`, wherever it sits. */
export function placeholdersIn(value: unknown): LayerPlaceholder[] {
  const parsed = LayerPlaceholder.safeParse(value);
  if (parsed.success) return [parsed.data];
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/**
 * A recipe whose placeholders all point somewhere: an input it declares, or a step before the
 * one that names it. Input ids are unique.
 */
export const Recipe = RecipeShape.superRefine((recipe, ctx) => {
  const ids = recipe.inputs.map((i) => i.id);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['inputs'], message: 'input ids must be unique' });
  recipe.steps.forEach((step, index) => {
    for (const p of placeholdersIn(step.args)) {
      if ('$input' in p && !ids.includes(p.$input))
        ctx.addIssue({ code: 'custom', path: ['steps', index, 'args'], message: `names ${p.$input}, which the recipe does not declare` });
      if ('$step' in p && p.$step > index)
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'args'],
          message: `step ${index + 1} names the output of step ${p.$step}, which does not come before it`,
        });
    }
  });
});
export type Recipe = z.infer<typeof Recipe>;

/** What the Run recipe dialog lists: a recipe file in the outputs folder's `recipes/`. */
export const RecipeListing = z.object({
  /** The file name only (`name.recipe.json`): the renderer never names a path. */
  file: z.string(),
  name: z.string(),
  createdAt: z.string(),
  inputs: z.array(RecipeInput),
  steps: z.array(z.object({ tool: z.string() })),
  /** Set when the file is not a valid recipe: shown instead of a Run button. */
  problem: z.string().nullable(),
});
export type RecipeListing = z.infer<typeof RecipeListing>;

/** A replay's progress, pushed while it runs (`recipes/progressed`). */
export const RecipeProgress = z.object({
  file: z.string(),
  step: z.number().int(),
  count: z.number().int(),
  tool: z.string(),
  /** The tool's title as main has it (English); the panel shows it in the interface language. */
  title: z.string(),
  status: z.enum(['running', 'ok', 'failed', 'done']),
  message: z.string(),
});
export type RecipeProgress = z.infer<typeof RecipeProgress>;

import { z } from 'zod';
import { RecipeListing, RecipeProgress } from '../domain/recipe.js';

/**
 * Recipes (issue 17): the Run recipe dialog lists the recipe files of the project's outputs
 * folder by file name. Exporting, running and stopping go through `entries/trigger`
 * (`recipes.export`, `recipes.run`, `recipes.stop`), so they are validated and audited.
 */
export const recipeMethods = {
  'recipes/list': { params: z.object({}).strict(), result: z.object({ recipes: z.array(RecipeListing), dir: z.string() }) },
};

export const recipeEvents = {
  /** A replay's step started, finished or failed, or the replay is done. */
  'recipes/progressed': RecipeProgress,
};

import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { Recipe, type RecipeListing } from '../../src-shared/domain/recipe.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { freeOutputPath } from '../composition/freeOutputPath.js';
import { recipeScript } from './recipeScript.js';

/** Recipes live in `<project>-outputs/recipes/`; the renderer names them by file name only. */
export const recipesDirOf = (outputsDir: string): string => join(outputsDir, 'recipes');

/** A recipe file is small: anything larger is not one of ours. */
const MAX_RECIPE_BYTES = 1_000_000;
const MAX_LISTED = 200;
const RECIPE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,120}\.recipe\.json$/;

export interface WrittenRecipe {
  recipe: string;
  /** null: no step has a command-line equivalent. */
  script: string | null;
  scriptSteps: number[];
}

/** Writes `NAME.recipe.json` (never over another file) and, when some step has one, `NAME.sh` beside it. */
export function writeRecipe(dir: string, recipe: Recipe): WrittenRecipe {
  mkdirSync(dir, { recursive: true });
  const path = freeOutputPath(dir, recipe.name, 'recipe.json', 'recipe');
  writeFileSync(path, `${JSON.stringify(recipe, null, 2)}\n`, { flag: 'wx' });
  const script = recipeScript(recipe);
  if (script.commandSteps.length === 0) return { recipe: path, script: null, scriptSteps: [] };
  const shPath = freeOutputPath(dir, basename(path, '.recipe.json'), 'sh', 'recipe');
  writeFileSync(shPath, script.text, { flag: 'wx', mode: 0o755 });
  return { recipe: path, script: shPath, scriptSteps: script.commandSteps };
}

/**
 * The recipe in `file` of `dir`, checked. `file` comes from the renderer: a bare file name of
 * the recipes folder only (no separators, no dot files), and its real path must stay inside.
 */
export function readRecipe(dir: string, file: string): Recipe {
  if (!RECIPE_FILE.test(file))
    throw new ToolFailure('invalid_params', `'${file.slice(0, 80)}' is not a recipe file name (NAME.recipe.json).`, false);
  const path = join(dir, file);
  if (!existsSync(path)) throw new ToolFailure('invalid_params', `There is no recipe '${file}' in ${dir}.`, false);
  const real = realpathSync(path);
  if (!real.startsWith(realpathSync(dir) + sep)) throw new ToolFailure('not_allowed', `'${file}' leads outside the recipes folder.`, false);
  return parseRecipeText(readBounded(real), file);
}

function readBounded(path: string): string {
  if (statSync(path).size > MAX_RECIPE_BYTES)
    throw new ToolFailure('invalid_params', `${basename(path)} is larger than a recipe can be (1 MB).`, false);
  return readFileSync(path, 'utf8');
}

/** JSON text → a checked recipe, or a clear error naming the file and what is wrong. */
export function parseRecipeText(text: string, file: string): Recipe {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ToolFailure('invalid_params', `${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`, false);
  }
  const parsed = Recipe.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(recipe)'}: ${i.message}`)
      .join('; ');
    throw new ToolFailure('invalid_params', `${file} is not a valid Mapwright recipe: ${problems}`, false);
  }
  return parsed.data;
}

/** The recipes of the folder for the Run recipe dialog, newest name last; a bad file is listed with its problem. */
export function listRecipes(dir: string): RecipeListing[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => RECIPE_FILE.test(f))
    .sort()
    .slice(0, MAX_LISTED);
  return files.map((file) => {
    try {
      const r = readRecipe(dir, file);
      return { file, name: r.name, createdAt: r.createdAt, inputs: r.inputs, steps: r.steps.map((s) => ({ tool: s.tool })), problem: null };
    } catch (err) {
      return { file, name: file, createdAt: '', inputs: [], steps: [], problem: err instanceof Error ? err.message : String(err) };
    }
  });
}

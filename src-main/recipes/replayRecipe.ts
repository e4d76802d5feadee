import { LayerPlaceholder, type Recipe, type RecipeProgress } from '../../src-shared/domain/recipe.js';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/** A recipe step on its way to the dispatcher: shown in the dialog as "Recipe step 2 of 3". */
export interface RecipeStepCall {
  tool: string;
  args: Record<string, unknown>;
  /** "Recipe step 2 of 3" */
  label: string;
  /** The tool's title, for the progress line. */
  title: string;
  step: number;
  count: number;
  /** Said in the dialog when the tool changed since the recipe was made. */
  note?: string;
}

export interface ReplayDeps {
  /** Runs one step through the dispatcher (approval included); the names of the layers it loaded. */
  dispatch(call: RecipeStepCall): Promise<{ result: ToolResult; loadedLayers: string[] }>;
  /** The tool as it is now, or null when there is no such tool. */
  tool(id: string): { version: string; definitionHash: string; title: string } | null;
  /** A project layer by id or exact name. */
  layer(idOrName: string): { id: string; name: string } | null;
  progress(p: Omit<RecipeProgress, 'file'>): void;
}

export interface ReplayReport {
  steps: { step: number; tool: string; layers: string[] }[];
  /** Every layer the replay loaded, in order. */
  layers: string[];
}

/**
 * Replays a checked recipe on the layers the person mapped to its inputs. Every tool is looked
 * up before anything runs (an unknown one stops it there); then each step goes through the
 * dispatcher, which validates, checks sources and asks for approval as for any change. A
 * rejected or failed step stops the replay, saying which step and why; the layers a step
 * loaded stand in for its placeholder in later steps.
 */
export async function replayRecipe(recipe: Recipe, bindings: Readonly<Record<string, string>>, deps: ReplayDeps): Promise<ReplayReport> {
  const count = recipe.steps.length;
  recipe.steps.forEach((step, i) => {
    if (!deps.tool(step.tool))
      throw new ToolFailure(
        'unknown_tool',
        `Recipe step ${i + 1} of ${count} uses the tool '${step.tool}', which this Mapwright does not have (a plugin missing or switched off?). Nothing was run.`,
        false,
      );
  });
  const inputs = new Map<string, string>();
  for (const input of recipe.inputs) {
    const given = bindings[input.id];
    if (!given) throw new ToolFailure('invalid_params', `Choose a layer for ${input.id} (the recipe was made on '${input.from}').`, false);
    const layer = deps.layer(given);
    if (!layer) throw new ToolFailure('invalid_params', `${input.id}: there is no layer '${given}' in the project.`, false);
    inputs.set(input.id, layer.id);
  }

  const outputs: string[][] = [];
  const report: ReplayReport = { steps: [], layers: [] };
  for (const [i, step] of recipe.steps.entries()) {
    const n = i + 1;
    const label = `Recipe step ${n} of ${count}`;
    const args = substitute(step.args, (p) => {
      if ('$input' in p) return inputs.get(p.$input)!;
      const made = outputs[p.$step - 1]?.[p.layer];
      if (made === undefined)
        throw new ToolFailure(
          'invalid_params',
          `${label} needs layer ${p.layer + 1} made by step ${p.$step}, which made no such layer.`,
          false,
        );
      return made;
    }) as Record<string, unknown>;
    const now = deps.tool(step.tool)!;
    const changed = now.definitionHash !== step.definitionHash;
    const title = now.title;
    deps.progress({ step: n, count, tool: step.tool, title, status: 'running', message: `${label}: ${step.tool}` });
    const outcome = await deps.dispatch({
      tool: step.tool,
      args,
      label,
      title,
      step: n,
      count,
      ...(changed
        ? {
            note: `${step.tool} has changed since this recipe was made (version ${step.version || 'unknown'} → ${now.version}); it runs as it is now.`,
          }
        : {}),
    });
    if (!outcome.result.ok) {
      const { code, message } = outcome.result.error;
      const what = code === 'rejected_by_user' ? 'was rejected' : code === 'cancelled' ? 'was stopped' : `failed (${code})`;
      const text = `${label} (${step.tool}) ${what}: ${message} The replay stopped there; steps before it stay done (Undo takes them back).`;
      deps.progress({ step: n, count, tool: step.tool, title, status: 'failed', message: text });
      throw new ToolFailure(code === 'rejected_by_user' ? 'rejected_by_user' : 'not_allowed', text, false);
    }
    outputs.push(outcome.loadedLayers);
    report.steps.push({ step: n, tool: step.tool, layers: outcome.loadedLayers });
    report.layers.push(...outcome.loadedLayers);
    deps.progress({
      step: n,
      count,
      tool: step.tool,
      title,
      status: 'ok',
      message: `${label}: ${step.tool} done${outcome.loadedLayers.length ? ` (${outcome.loadedLayers.join(', ')})` : ''}`,
    });
  }
  deps.progress({ step: count, count, tool: '', title: '', status: 'done', message: `Recipe '${recipe.name}' done: ${count} step(s).` });
  return report;
}

/** A copy of `value` with every layer placeholder replaced by the layer it stands for. */
function substitute(value: unknown, layerFor: (p: LayerPlaceholder) => string): unknown {
  const placeholder = LayerPlaceholder.safeParse(value);
  if (placeholder.success) return layerFor(placeholder.data);
  if (Array.isArray(value)) return value.map((v) => substitute(v, layerFor));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, layerFor)]));
  return value;
}

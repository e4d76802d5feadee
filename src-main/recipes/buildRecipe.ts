import type { Layer } from '../../src-shared/domain/layer.js';
import { Recipe, type LayerPlaceholder, type RecipeInput, type RecipeSkipped, type RecipeStep } from '../../src-shared/domain/recipe.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { CallerPolicy, Safety } from '../../src-shared/tools/toolSdk.js';
import type { AuditEntry } from '../store/auditRepo.js';
import { getAt, layerRefPaths, setAt, type ArgPath } from './layerRefs.js';

/** What the builder needs to know of a tool the audit names; null: no such tool now. */
export type ToolFacts = (toolId: string) => { safety: Safety; caller?: CallerPolicy } | null;

export interface RecipeSource {
  name: string;
  createdAt: string;
  /** The conversation's audit rows, oldest first. */
  rows: readonly AuditEntry[];
  /** The project's layers now: inputs are described from them, step outputs found by their file. */
  layers: readonly Pick<Layer, 'id' | 'name' | 'kind' | 'source' | 'sublayer' | 'info'>[];
  tool: ToolFacts;
}

/** Where a layer of the conversation came from, while the recipe is being built. */
type Origin =
  { kind: 'input'; key: string; from: string; layerKind: RecipeInput['kind']; geometry: string | null } | { kind: 'step'; draft: Draft };

interface Draft {
  row: AuditEntry;
  args: Record<string, unknown>;
  slots: { path: ArgPath; origin: Origin }[];
}

/** A call the recipe leaves out although it succeeded: why, or null when it can be replayed. */
function unreplayable(toolId: string, args: Record<string, unknown>, caller: CallerPolicy | undefined): string | null {
  if (caller === 'user_only') return 'can only be run by the person from the interface';
  if (toolId === 'layers.load') return 'loads one particular file; its layer is an input of the recipe instead';
  if (toolId === 'layers.locate') return 'points a layer at one particular file';
  if (toolId === 'edit.write_back') return 'writes edits back into the original file, which a replay must not do unasked';
  if (toolId === 'inspect.save_query') return 'its SQL names layers inside its text, which a replay cannot rename';
  if ('fids' in args || 'fid' in args) return 'edits features by their ids (fid), which another input does not share';
  return null;
}

/** Arguments the host fills in itself: left out, so a replay gets fresh ones. */
function withoutHostArgs(toolId: string, args: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...args };
  delete copy.output_path;
  // The default name follows the input (`<input>_<algorithm>`); the first run's name would not.
  if (toolId === 'processing.run') delete copy.output_name;
  return copy;
}

/**
 * A recipe from a conversation's audit rows: its successful, approved (or allowed) changes in
 * order, layers as placeholders — a layer an earlier step made is `{$step, layer}`, any other
 * is an input. Reads are left out; Undo and Revert this turn take back what they undid;
 * changes that cannot be replayed are listed in `skipped` with the reason.
 */
export function buildRecipe(src: RecipeSource): Recipe {
  const drafts: Draft[] = [];
  const skipped: RecipeSkipped[] = [];
  /** Layer id or name → where it came from. Later facts (a new output of that name) win. */
  const known = new Map<string, Origin>();
  let inputCount = 0;

  const originOf = (value: string): Origin => {
    const found = known.get(value);
    if (found) return found;
    const layer = src.layers.find((l) => l.id === value || l.name === value);
    const byOtherKey = layer ? (known.get(layer.id) ?? known.get(layer.name)) : undefined;
    const origin: Origin = byOtherKey ?? {
      kind: 'input',
      key: `k${++inputCount}`,
      from: layer?.name ?? value,
      layerKind: layer?.kind ?? null,
      geometry: layer?.info.geometryType ?? null,
    };
    for (const k of [value, ...(layer ? [layer.id, layer.name] : [])]) known.set(k, origin);
    return origin;
  };

  const takeBack = (undone: Draft[], why: string) => {
    for (const d of undone) {
      drafts.splice(drafts.indexOf(d), 1);
      skipped.push({ tool: d.row.toolId, reason: why });
    }
  };

  for (const row of src.rows) {
    if (row.outcome !== 'ok') continue;
    if (row.toolId === 'commands.undo') {
      const last = drafts.at(-1);
      if (last) takeBack([last], 'undone with Undo');
      continue;
    }
    if (row.toolId === 'commands.revert_turn') {
      const last = drafts.at(-1);
      if (last) takeBack(last.row.runId ? drafts.filter((d) => d.row.runId === last.row.runId) : [last], 'reverted with Revert this turn');
      continue;
    }
    if (row.decision === 'rejected' || row.decision === 'refused') continue;
    const facts = src.tool(row.toolId);
    if (!facts) {
      // The GUI's own commands (modes, recipes) are not changes of the data.
      if (!row.toolId.startsWith('commands.') && !row.toolId.startsWith('recipes.'))
        skipped.push({ tool: row.toolId, reason: 'is not a tool of this Mapwright any more' });
      continue;
    }
    if (facts.safety === 'read') continue;
    const args = row.args && typeof row.args === 'object' && !Array.isArray(row.args) ? (row.args as Record<string, unknown>) : {};
    const reason = unreplayable(row.toolId, args, facts.caller);
    if (reason) {
      skipped.push({ tool: row.toolId, reason });
      continue;
    }
    const slots = layerRefPaths(row.toolId, args).map((path) => ({ path, origin: originOf(String(getAt(args, path))) }));
    const draft: Draft = { row, args: withoutHostArgs(row.toolId, args), slots };
    drafts.push(draft);
    for (const name of producedNames(args, src.layers)) known.set(name, { kind: 'step', draft });
    // A renamed layer is the same layer under its new name.
    if (row.toolId === 'layers.rename' && typeof args.name === 'string' && slots[0]) known.set(args.name, slots[0].origin);
  }

  if (drafts.length === 0)
    throw new ToolFailure(
      'not_allowed',
      'Nothing to export: this conversation made no change a recipe can replay' +
        (skipped.length ? ` (left out: ${skipped.map((s) => `${s.tool} ${s.reason}`).join('; ')}).` : '.'),
      false,
    );
  return finish(src, drafts, skipped);
}

/** Numbers the steps and the inputs (in order of first use) and writes the placeholders. */
function finish(src: RecipeSource, drafts: Draft[], skipped: RecipeSkipped[]): Recipe {
  const inputs: RecipeInput[] = [];
  const inputIds = new Map<string, string>();
  const placeholderOf = (origin: Origin, usedBy: number): LayerPlaceholder => {
    if (origin.kind === 'step') {
      const index = drafts.indexOf(origin.draft);
      if (index >= 0 && index < usedBy) return { $step: index + 1, layer: 0 };
      // Made by a change that was undone (and so is not a step): a layer to give, like any input.
      const name =
        typeof origin.draft.row.args === 'object'
          ? String((origin.draft.row.args as Record<string, unknown>).output_name ?? origin.draft.row.toolId)
          : origin.draft.row.toolId;
      return placeholderOf({ kind: 'input', key: `undone:${name}`, from: name, layerKind: null, geometry: null }, usedBy);
    }
    let id = inputIds.get(origin.key);
    if (!id) {
      id = `input${inputs.length + 1}`;
      inputIds.set(origin.key, id);
      inputs.push({ id, from: origin.from, kind: origin.layerKind, geometry: origin.geometry });
    }
    return { $input: id };
  };
  const steps: RecipeStep[] = drafts.map((draft, index) => {
    let args: unknown = draft.args;
    for (const slot of draft.slots) args = setAt(args, slot.path, placeholderOf(slot.origin, index));
    return {
      tool: draft.row.toolId,
      version: draft.row.toolVersion ?? '',
      definitionHash: draft.row.definitionHash ?? '',
      args: args as Record<string, unknown>,
    };
  });
  return Recipe.parse({ format: 'mapwright-recipe', version: 1, name: src.name, createdAt: src.createdAt, inputs, steps, skipped });
}

/**
 * The names and ids a successful call's output layer goes by: the `output_name` it asked for
 * and the project layers whose file is its `output_path` (the project may have made the name
 * unique, `_2`).
 */
function producedNames(args: Record<string, unknown>, layers: RecipeSource['layers']): string[] {
  const names: string[] = [];
  if (typeof args.output_name === 'string') names.push(args.output_name);
  if (typeof args.output_path === 'string') {
    const out = parseSource(args.output_path);
    for (const l of layers)
      if (l.source === out.path && (out.sublayer === null || l.sublayer === null || l.sublayer === out.sublayer)) names.push(l.id, l.name);
  }
  return names;
}

import type { Layer } from '../../domain/layer.js';
import { wireName, type ToolDefinition } from '../toolSdk.js';
import { applyParamRules, layerFits, parseRules, type RuleProject } from './applyParamRules.js';

const KIND_RULES = new Set(['raster', 'vector', 'table', 'geometry']);

/**
 * The dispatcher's rule stage for one call: `def`'s declared rules against the project. A layer
 * refused for its kind or geometry gets a hint naming the tools among `offered()` (what the model
 * may call) that take it; the list is only built for such a refusal, not for every call. Throws `invalid_params`; does nothing for a tool without rules.
 */
export function applyToolRules(
  def: Pick<ToolDefinition, 'id' | 'group' | 'rules'>,
  args: unknown,
  project: RuleProject,
  offered: () => readonly Pick<ToolDefinition, 'id' | 'group' | 'rules'>[],
): void {
  if (!def.rules || Object.keys(def.rules).length === 0) return;
  applyParamRules(def.rules, args as Record<string, unknown>, project, {
    alternativesFor: (layer, need) => toolsTaking(def, layer, need, offered()),
  });
}

/**
 * Tools of `def`'s group whose rules take `layer` (the ones to call instead): those made for its
 * kind or geometry first, then those that take any layer. For a `text_field`, only tools with a
 * field parameter of that layer that need not be numeric.
 */
function toolsTaking(
  def: Pick<ToolDefinition, 'id' | 'group'>,
  layer: Layer,
  need: 'layer' | 'text_field',
  offered: readonly Pick<ToolDefinition, 'id' | 'group' | 'rules'>[],
): string[] {
  const ranked: { name: string; specific: boolean }[] = [];
  for (const t of offered) {
    if (t.id === def.id || t.group !== def.group || !t.rules) continue;
    const parsed = parseRules(t.rules);
    const fitting = [...parsed].find(([, list]) => list.some((r) => r.kind === 'layer_exists') && layerFits(list, layer));
    if (!fitting) continue;
    const [layerParam, layerRules] = fitting;
    const takesText = [...parsed.values()].some(
      (list) => list.some((r) => r.kind === 'field_exists' && r.layerParam === layerParam) && !list.some((r) => r.kind === 'field_numeric'),
    );
    if (need === 'text_field' && !takesText) continue;
    ranked.push({ name: wireName(t.id), specific: layerRules.some((r) => KIND_RULES.has(r.kind)) });
  }
  return [...ranked.filter((r) => r.specific), ...ranked.filter((r) => !r.specific)].map((r) => r.name);
}

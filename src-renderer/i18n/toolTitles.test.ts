import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { buildCommands } from '../../src-main/tool-host/commands.js';
import { buildRecipeCommands } from '../../src-main/recipes/recipeCommands.js';
import { composedTools } from '../../src-main/composition/composedTools.js';
import { createPythonTools } from '../../src-main/code/pythonTools.js';
import { builtInTools } from '../../tools/index.js';
import { createLoadSkillTool } from '../../tools/skills/loadSkill.js';
import { tools } from './catalogues/tools.js';
import { i18n } from './i18n.js';
import { toolTitle } from './toolTitles.js';

/**
 * Stands in for every dependency: building a definition reads nothing (a few builders call a
 * dependency once, e.g. to register origins); only `run` would, and it is never called here.
 */
const anything: unknown = new Proxy(() => anything, { get: (_t, key) => (key === 'then' ? undefined : anything), apply: () => anything });
const deps = anything as never;

/** Every tool main registers itself, whatever the machine (Python is offered only where it runs). */
function mainTools(): { id: string; title: string }[] {
  return [
    ...builtInTools,
    createLoadSkillTool(deps) as unknown as ToolDefinition,
    ...composedTools(deps),
    ...createPythonTools(deps, { available: true } as never),
    ...buildCommands(deps),
    ...buildRecipeCommands(deps),
  ];
}

test('the tools catalogue has every tool main defines, its English exactly the definition title', () => {
  const defined = new Map(mainTools().map((t) => [t.id, t.title]));
  assert.ok(defined.size > 50, `found ${defined.size} tools`);
  assert.deepEqual(Object.keys(tools.en).sort(), [...defined.keys()].sort(), 'catalogue keys = tool ids');
  for (const [id, title] of defined) assert.equal((tools.en as Record<string, string>)[id], title, id);
});

test('toolTitle: English is the title main sent; Chinese the catalogue one; others fall back', async () => {
  await i18n.changeLanguage('en');
  assert.equal(toolTitle('layers.load', 'Load layer'), 'Load layer');
  // English never reads the catalogue: what main sent is what shows.
  assert.equal(toolTitle('layers.load', 'Load a layer (newer title)'), 'Load a layer (newer title)');
  assert.equal(toolTitle('plugin.acme.count', 'Count things'), 'Count things');

  await i18n.changeLanguage('zh-CN');
  try {
    assert.equal(toolTitle('layers.load', 'Load layer'), '加载图层');
    assert.equal(toolTitle('commands.undo', 'Undo last change'), '撤销上一次更改');
    assert.equal(toolTitle('style.raster_hillshade', 'Raster hillshade'), '栅格山体阴影');
    // A plugin's or MCP tool's id, a null id, and an id that is only a prefix of built-in ones.
    assert.equal(toolTitle('plugin.acme.count', 'Count things'), 'Count things');
    assert.equal(toolTitle(null, 'Count things'), 'Count things');
    assert.equal(toolTitle('layers', 'Layers thing'), 'Layers thing');
  } finally {
    await i18n.changeLanguage('en');
  }
});

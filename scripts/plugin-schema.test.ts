import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { PLUGIN_SCHEMA_FILE, pluginSchemaText } from './plugin-schema.js';

it('plugins/plugin.schema.json is what `npm run plugin-schema` generates from the meta-model', async () => {
  const committed = readFileSync(PLUGIN_SCHEMA_FILE, 'utf8');
  assert.equal(committed, await pluginSchemaText(), 'plugins/plugin.schema.json is stale: run `npm run plugin-schema`');
  const schema = JSON.parse(committed) as { required: string[]; properties: Record<string, unknown> };
  assert.deepEqual(schema.required, ['namespace', 'version', 'name', 'description', 'author', 'tools']);
});

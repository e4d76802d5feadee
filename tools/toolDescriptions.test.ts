import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wireName } from '../src-shared/tools/toolSdk.js';
import { builtInTools } from './index.js';

/**
 * The model sees only a tool's description and schema, so descriptions are checked like code:
 * present, say what the tool returns, and every tool they point to exists. Where a tool's
 * output is the input of another, the description names that consumer.
 */
const CONSUMERS: Record<string, string[]> = {
  'inspect.list_layers': ['inspect_layer_info'],
  'layers.load': ['layers_zoom_to', 'inspect_layer_info'],
  'processing.list': ['processing_describe'],
  'processing.describe': ['processing_run'],
};

describe('tool descriptions', () => {
  const wireNames = new Set(builtInTools.map((t) => wireName(t.id)));
  const namespaces = [...new Set(builtInTools.map((t) => t.id.split('.')[0]!))];
  const mention = new RegExp(`\\b(?:${namespaces.join('|')})_[a-z_]+\\b`, 'g');

  for (const tool of builtInTools) {
    it(`${tool.id}: present, says what it returns, points only at real tools`, () => {
      assert.ok(tool.description.length >= 40, 'a real description');
      assert.match(tool.description, /\breturns?\b|\boutput\b/i, 'says what it returns');
      for (const name of tool.description.match(mention) ?? []) assert.ok(wireNames.has(name), `mentions unknown tool ${name}`);
      for (const consumer of CONSUMERS[tool.id] ?? []) assert.ok(tool.description.includes(consumer), `names its consumer ${consumer}`);
      for (const [key, text] of Object.entries(describeFields(tool.input))) assert.ok(text, `parameter ${key} is described`);
    });
  }
});

/** The `.describe()` text of each top-level parameter (empty string when missing). */
function describeFields(schema: unknown): Record<string, string> {
  const shape = (schema as { shape?: Record<string, { description?: string }> }).shape ?? {};
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.description ?? '']));
}

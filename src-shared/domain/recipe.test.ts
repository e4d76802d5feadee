import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Recipe } from './recipe.js';

const good = {
  format: 'mapwright-recipe',
  version: 1,
  name: 'buffer',
  createdAt: '2026-12-02T10:00:00Z',
  inputs: [{ id: 'input1', from: 'roads', kind: 'vector' }],
  steps: [
    {
      tool: 'processing.run',
      version: '1',
      definitionHash: 'h',
      args: { algorithm: 'buffer', params: { input: { $input: 'input1' }, distance: 5 } },
    },
    { tool: 'style.set_simple', version: '1', definitionHash: 'h', args: { layer: { $step: 1, layer: 0 } } },
  ],
};

const problems = (value: unknown) => {
  const r = Recipe.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('Recipe: a file from anywhere, checked before anything runs', () => {
  it('accepts a well-formed recipe and fills skipped', () => {
    assert.deepEqual(problems(good), []);
    assert.deepEqual(Recipe.parse(good).skipped, []);
  });
  it('rejects another format, a later version, no steps and a tool id that is not one', () => {
    assert.ok(problems({ ...good, format: 'other' }).length);
    assert.ok(problems({ ...good, version: 2 }).length);
    assert.ok(problems({ ...good, steps: [] }).length);
    assert.match(problems({ ...good, steps: [{ ...good.steps[0], tool: 'rm -rf /' }] }).join(), /tool id/);
  });
  it('rejects placeholders that point nowhere: an undeclared input, a step not before', () => {
    const undeclared = structuredClone(good);
    undeclared.steps[0]!.args.params = { input: { $input: 'input7' } } as never;
    assert.match(problems(undeclared).join(), /input7/);
    const forward = structuredClone(good);
    forward.steps[0]!.args.params = { input: { $step: 2, layer: 0 } } as never;
    assert.match(problems(forward).join(), /does not come before/);
  });
  it('rejects duplicate and malformed input ids', () => {
    assert.match(problems({ ...good, inputs: [good.inputs[0], good.inputs[0]] }).join(), /unique/);
    assert.ok(problems({ ...good, inputs: [{ id: '../x', from: 'a', kind: 'vector' }] }).length);
  });
});

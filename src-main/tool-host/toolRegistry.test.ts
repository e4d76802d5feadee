import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { testTool } from '../../src-shared/tools/testing/testTool.js';
import { ToolRegistry } from './toolRegistry.js';

const tool = (id: `${string}.${string}`, description = 'Says hello.') =>
  testTool({ id, title: id, description, input: z.object({}), safety: 'read', summary: () => id, execute: async () => ({}) });

describe('tool registry: groups of tools that come and go (plugin versions)', () => {
  it('adds, replaces and removes a group; built-in tools stay', () => {
    const registry = new ToolRegistry([tool('layers.list')]);
    assert.deepEqual(registry.setGroup('hello@1.0.0', [tool('hello.greet'), tool('hello.wave')]), { ok: true });
    assert.ok(registry.find('hello_greet'));
    assert.deepEqual(registry.setGroup('hello@1.0.0', [tool('hello.greet', 'Says hello twice.')]), { ok: true });
    assert.equal(registry.find('hello.greet')!.def.description, 'Says hello twice.');
    assert.equal(registry.find('hello.wave'), undefined, 'a tool the new version dropped is gone');
    registry.setGroup('hello@1.0.0', []);
    assert.deepEqual(
      registry.all().map((t) => t.def.id),
      ['layers.list'],
    );
  });

  it('a broken declaration leaves the registry as it was and says why', () => {
    const registry = new ToolRegistry([tool('layers.list')]);
    registry.setGroup('hello@1.0.0', [tool('hello.greet')]);
    const clash = registry.setGroup('other@2.0.0', [tool('other.fine'), tool('layers.list')]);
    assert.deepEqual(clash, { ok: false, reason: "Duplicate tool id 'layers.list'" });
    assert.equal(registry.find('other.fine'), undefined, 'nothing of the refused group was added');
    const bad = registry.setGroup('hello@1.0.0', [tool('Hello.Greet')]);
    assert.equal(bad.ok, false);
    assert.ok(registry.find('hello.greet'), 'the group keeps its previous tools');
  });

  it('a changed declaration gets a new definition hash (grants are tied to it)', () => {
    const registry = new ToolRegistry([]);
    registry.setGroup('hello@1.0.0', [tool('hello.greet')]);
    const before = registry.find('hello.greet')!.definitionHash;
    registry.setGroup('hello@1.0.0', [tool('hello.greet', 'Says hello in French.')]);
    assert.notEqual(registry.find('hello.greet')!.definitionHash, before);
  });
});

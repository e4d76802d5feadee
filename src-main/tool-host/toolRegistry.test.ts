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

describe('tool registry: a conversation pinned to an older plugin version', () => {
  const versioned = (version: string, description: string) => ({ ...tool('pin.greet', description), version });

  it('its view offers and finds the pinned version; others see the current one', () => {
    const registry = new ToolRegistry([tool('layers.list')]);
    registry.setGroup('plugin:pin', [versioned('2.0.0', 'Version two.')]);
    assert.deepEqual([...registry.setAlternates('pin', new Map([['1.0.0', [versioned('1.0.0', 'Version one.')]]]))], []);
    const pinned = registry.view(new Map([['pin', '1.0.0']]));
    assert.equal(pinned.find('pin_greet')!.def.description, 'Version one.');
    assert.deepEqual(
      pinned
        .forModel()
        .map((t) => [t.def.id, t.def.version])
        .sort(),
      [
        ['layers.list', '1'],
        ['pin.greet', '1.0.0'],
      ],
    );
    assert.equal(registry.find('pin.greet')!.def.description, 'Version two.');
    assert.equal(
      registry.view(new Map([['pin', '9.9.9']])).find('pin.greet')!.def.version,
      '2.0.0',
      'a pin to a version gone: the current one',
    );
  });

  it('an alternate that clashes with another tool is refused with the reason', () => {
    const registry = new ToolRegistry([tool('layers.list')]);
    const refused = registry.setAlternates('pin', new Map([['1.0.0', [tool('layers.list')]]]));
    assert.match(refused.get('1.0.0') ?? '', /Duplicate tool id 'layers.list'/);
  });
});

describe('tool registry: declared parameter rules', () => {
  const ruled = (rules: Record<string, string[]>, id: `${string}.${string}` = 'test.ruled') =>
    testTool({
      id,
      title: id,
      description: 'Has rules. Returns nothing.',
      input: z.object({ layer: z.string(), field: z.string().optional(), count: z.number() }),
      rules,
      safety: 'read',
      summary: () => id,
      execute: async () => ({}),
    });

  it('refuses a declaration whose rules do not make sense, naming the tool and the parameter', () => {
    const bad: [Record<string, string[]>, RegExp][] = [
      [{ layer: ['layer_exist'] }, /Tool 'test\.ruled' has bad parameter rules: rules\.layer: unknown rule 'layer_exist'/],
      [{ dem: ['layer_exists'] }, /rules\.dem: no parameter 'dem' \(parameters: layer, field, count\)/],
      [{ layer: ['layer_exists'], field: ['field_exists:lyr'] }, /rules\.field: 'field_exists:lyr' names no parameter 'lyr'/],
      [{ layer: ['vector'] }, /rules\.layer: 'vector' needs 'layer_exists' on the same parameter/],
      [{ field: ['field_exists:layer'] }, /rules\.field: 'field_exists:layer' needs 'layer_exists' on parameter 'layer'/],
      [{ count: ['layer_exists'] }, /rules\.count: its rules read a name, but the parameter takes no string/],
      [{ layer: ['layer_exists'], field: ['band_exists:layer'] }, /rules\.field: its rules read a band number/],
    ];
    for (const [rules, message] of bad) assert.throws(() => new ToolRegistry([ruled(rules)]), message);
    const group = new ToolRegistry([]).setGroup('plugin@1', [ruled({ layer: ['raster', 'vector', 'layer_exists'] })]);
    assert.equal(group.ok, false);
    assert.match(group.ok ? '' : group.reason, /a layer cannot be raster and vector at once/);
  });

  it('takes rules that fit the input', () => {
    const registry = new ToolRegistry([ruled({ layer: ['layer_exists', 'vector'], field: ['field_exists:layer', 'field_numeric'] })]);
    assert.ok(registry.find('test.ruled'));
  });

  it('the rules are part of the definition hash, in any order; a tool without rules keeps its hash', () => {
    const hash = (def: ReturnType<typeof ruled>) => new ToolRegistry([def]).find(def.id)!.definitionHash;
    const a = hash(ruled({ layer: ['layer_exists', 'vector'], field: ['field_exists:layer'] }));
    const reordered = hash(ruled({ field: ['field_exists:layer'], layer: ['vector', 'layer_exists'] }));
    const other = hash(ruled({ layer: ['layer_exists', 'raster'] }));
    assert.equal(a, reordered);
    assert.notEqual(a, other);
    const { rules: _none, ...plain } = ruled({});
    assert.equal(hash(ruled({})), hash(plain as ReturnType<typeof ruled>), 'empty rules hash as none');
    assert.notEqual(a, hash(plain as ReturnType<typeof ruled>));
  });
});

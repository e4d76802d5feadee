import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { Handles } from '../../src-shared/tools/handles.js';
import { defineTool, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import { ApprovalBroker } from './approvalBroker.js';
import { ToolDispatcher } from './toolDispatcher.js';
import { ToolRegistry } from './toolRegistry.js';

const echo = defineTool({
  id: 'test.echo',
  version: '1',
  title: 'Echo',
  description: 'Returns its input.',
  input: z.object({ n: z.number().int() }),
  safety: 'read',
  exec: 'main',
  handles: [],
  summary: (a) => `echo ${a.n}`,
  execute: async (a) => ({ n: a.n }),
});

const sneaky = defineTool({
  id: 'test.sneaky',
  version: '1',
  title: 'Sneaky',
  description: 'Uses a handle it did not declare.',
  input: z.object({}),
  safety: 'read',
  exec: 'main',
  handles: [],
  summary: () => 'sneak',
  execute: async (_a, ctx) => (ctx.handles as unknown as Handles).project.listLayers(),
});

const write = defineTool({
  id: 'test.write',
  version: '1',
  title: 'Write',
  description: 'A write.',
  input: z.object({}),
  safety: 'write',
  exec: 'main',
  handles: [],
  summary: () => 'write',
  execute: async () => 'written',
});

const tools = [echo, sneaky, write] as unknown as ToolDefinition[];
const handles = { project: { listLayers: () => [] } } as unknown as Handles;

function setup() {
  const announced: string[] = [];
  const broker = new ApprovalBroker(
    (r) => announced.push(r.id),
    () => undefined,
  );
  return { broker, announced, dispatcher: new ToolDispatcher(new ToolRegistry(tools), handles, broker) };
}
const call = (name: string, rawArgs: unknown, caller: 'model' | 'user' = 'model') => ({
  name,
  rawArgs,
  caller,
  callId: 'c1',
  signal: new AbortController().signal,
});

describe('ToolRegistry', () => {
  it('registers every built-in tool, each with a description that says what it returns', () => {
    const registry = new ToolRegistry(builtInTools);
    for (const t of registry.all()) {
      assert.match(t.def.description, /Returns|returns/, `${t.def.id} says what it returns`);
      assert.equal(t.inputSchema.type, 'object');
    }
  });
  it('rejects duplicate ids and wire-name collisions, naming the culprit', () => {
    assert.throws(() => new ToolRegistry([echo, echo] as unknown as ToolDefinition[]), /Duplicate tool id 'test.echo'/);
    assert.throws(() => new ToolRegistry([{ ...echo, handles: ['disk'] }] as unknown as ToolDefinition[]), /unknown handle 'disk'/);
    assert.throws(() => new ToolRegistry([{ ...echo, id: 'Echo' }] as unknown as ToolDefinition[]), /'Echo' must be/);
  });
});

describe('ToolDispatcher', () => {
  it('unknown tool → unknown_tool with the nearest names', async () => {
    const { result } = await setup().dispatcher.dispatch(call('test_ecko', '{}'));
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.error.code, 'unknown_tool');
      assert.match(result.error.hint!, /test_echo/);
    }
  });
  it('mistyped or malformed arguments → invalid_params naming the field; extra fields are ignored', async () => {
    const d = setup().dispatcher;
    const bad = (await d.dispatch(call('test_echo', '{"n":"three"}'))).result;
    assert.ok(!bad.ok && bad.error.code === 'invalid_params' && /n:/.test(bad.error.message));
    const broken = (await d.dispatch(call('test_echo', '{"n":'))).result;
    assert.ok(!broken.ok && broken.error.code === 'invalid_params');
    const extra = (await d.dispatch(call('test.echo', '{"n":3,"colour":"red"}'))).result;
    assert.deepEqual(extra, { ok: true, data: { n: 3 } });
  });
  it('a tool gets only the handles it declared', async () => {
    const { result } = await setup().dispatcher.dispatch(call('test_sneaky', '{}'));
    assert.ok(!result.ok && result.error.code === 'handler_error');
  });
  it('a model write waits for approval; the user caller does not', async () => {
    const s = setup();
    const pending = s.dispatcher.dispatch(call('test_write', '{}'));
    await new Promise((r) => setImmediate(r));
    assert.equal(s.announced.length, 1);
    s.broker.decide(s.announced[0]!, 'approve', false);
    assert.deepEqual((await pending).result, { ok: true, data: 'written' });
    const byUser = await s.dispatcher.dispatch(call('test_write', {}, 'user'));
    assert.deepEqual(byUser.result, { ok: true, data: 'written' });
    assert.equal(s.announced.length, 1, 'no dialog for the person’s own action');
  });
});

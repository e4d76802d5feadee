import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { z } from 'zod';
import type { LayerInfo } from '../../src-shared/domain/layer.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import { sourceParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure, toolError } from '../../src-shared/tools/toolResult.js';
import { producerTool, testTool } from '../../src-shared/tools/testing/testTool.js';
import { defineCommand, type LoadLayerRequest, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import { auditRow, testDispatcher } from './testing/testDispatcher.js';
import { ToolRegistry } from './toolRegistry.js';

const echo = testTool({
  id: 'test.echo',
  title: 'Echo',
  description: 'Returns its input.',
  input: z.object({ n: z.number().int() }),
  safety: 'read',
  summary: (a) => `echo ${a.n}`,
  execute: async (a) => ({ n: a.n }),
});

const sneaky = testTool({
  id: 'test.sneaky',
  title: 'Sneaky',
  description: 'Uses a handle it did not declare.',
  input: z.object({}),
  safety: 'read',
  summary: () => 'sneak',
  execute: async (_a, ctx) => (ctx.handles as unknown as Handles).project.listLayers(),
});

const write = testTool({
  id: 'test.write',
  title: 'Write',
  description: 'A write.',
  input: z.object({}),
  safety: 'write',
  summary: () => 'write',
  execute: async () => 'written',
});

const tools: ToolDefinition[] = [echo, sneaky, write];

function setup() {
  const announced: string[] = [];
  const audit: NewAuditEntry[] = [];
  const snapshots: string[] = [];
  const { dispatcher, broker } = testDispatcher(tools, {
    announce: (r) => announced.push(r.id),
    hooks: { audit: (e) => audit.push(e), snapshot: (i) => snapshots.push(i.toolId) },
  });
  return { broker, announced, dispatcher, audit, snapshots };
}
const call = (name: string, rawArgs: unknown, caller: 'model' | 'user' = 'model') => ({
  name,
  rawArgs,
  caller,
  callId: 'c1',
  runId: 'r1',
  conversationId: 'k1',
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

describe('ToolDispatcher rules of the tool layer', () => {
  const mk = (over: Partial<ToolDefinition>): ToolDefinition =>
    ({ ...echo, input: z.object({}), summary: () => String(over.id), execute: async () => 'done', ...over }) as unknown as ToolDefinition;
  const userOnly = mk({ id: 'test.user_only', safety: 'write', caller: 'user_only' });
  const destructive = mk({ id: 'test.destroy', safety: 'destructive' });
  const slow = mk({
    id: 'test.slow',
    timeoutMs: 50,
    execute: (_a: unknown, ctx: { signal: AbortSignal }) =>
      new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
  } as never);
  const once = mk({ id: 'test.once', oncePerSession: true });
  const producer = mk({
    id: 'test.producer',
    safety: 'write',
    execute: async () => ({ load_layers: [{ path: '/out/a.gpkg|layername=a', name: 'a' }] }),
  });
  let inFlight = 0;
  let peak = 0;
  const single = mk({
    id: 'test.single',
    concurrency: 1,
    execute: async () => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return 'ok';
    },
  });

  function host(mode: 'ask' | 'auto' | 'plan' = 'ask') {
    const announced: string[] = [];
    const audit: NewAuditEntry[] = [];
    const { registry, dispatcher, broker } = testDispatcher([userOnly, destructive, slow, once, producer, single, write], {
      announce: (r) => announced.push(r.id),
      hooks: { policy: () => ({ mode, askForReads: false }), audit: (e) => audit.push(e), loadProduced: async (r) => `loaded:${r.name}` },
    });
    return { registry, dispatcher, broker, announced, audit };
  }

  it('user_only: never offered to the model, refused at dispatch, runs for the person', async () => {
    const h = host();
    assert.ok(!h.registry.forModel().some((t) => t.def.id === 'test.user_only'), 'first wall: not in the model list');
    const byModel = await h.dispatcher.dispatch(call('test_user_only', '{}'));
    assert.ok(!byModel.result.ok && byModel.result.error.code === 'not_allowed', 'second wall: refused at dispatch');
    assert.deepEqual((await h.dispatcher.dispatch(call('test.user_only', {}, 'user'))).result, { ok: true, data: 'done' });
  });

  it('destructive always asks and is never remembered, even in Auto', async () => {
    const h = host('auto');
    for (let i = 0; i < 2; i++) {
      const pending = h.dispatcher.dispatch(call('test_destroy', '{}'));
      await new Promise((r) => setImmediate(r));
      assert.equal(h.announced.length, i + 1, 'asked every time');
      h.broker.decide(h.announced[i]!, 'approve', true);
      assert.equal((await pending).result.ok, true);
    }
    assert.deepEqual(h.broker.grantedToolIds(), []);
  });

  it('a grant is tied to the definition hash: a changed definition asks again', async () => {
    const h = host();
    const first = h.dispatcher.dispatch(call('test_write', '{}'));
    await new Promise((r) => setImmediate(r));
    h.broker.decide(h.announced[0]!, 'approve', true);
    await first;
    const hash = h.registry.find('test.write')!.definitionHash;
    assert.equal(h.broker.isGranted('test.write', hash), true);
    assert.equal(h.broker.isGranted('test.write', 'another-hash'), false);
    const changed = new ToolRegistry([{ ...write, description: 'A write, now different.' } as unknown as ToolDefinition]);
    assert.notEqual(changed.find('test.write')!.definitionHash, hash);
  });

  it('Auto runs writes without asking; Plan refuses them', async () => {
    const auto = host('auto');
    assert.deepEqual((await auto.dispatcher.dispatch(call('test_write', '{}'))).result, { ok: true, data: 'written' });
    assert.equal(auto.announced.length, 0);
    assert.equal(auto.audit.at(-1)!.decision, 'auto');
    const plan = host('plan');
    const refused = (await plan.dispatcher.dispatch(call('test_write', '{}'))).result;
    assert.ok(!refused.ok && refused.error.code === 'not_allowed');
  });

  it('time-out → timeout (retryable); oncePerSession → not_allowed the second time', async () => {
    const h = host();
    const t = (await h.dispatcher.dispatch(call('test_slow', '{}'))).result;
    assert.ok(!t.ok && t.error.code === 'timeout' && t.error.retryable);
    assert.equal((await h.dispatcher.dispatch(call('test_once', '{}'))).result.ok, true);
    const second = (await h.dispatcher.dispatch(call('test_once', '{}'))).result;
    assert.ok(!second.ok && second.error.code === 'not_allowed');
  });

  it('concurrency limits calls of one tool at once', async () => {
    const h = host();
    await Promise.all([1, 2, 3].map(() => h.dispatcher.dispatch(call('test_single', '{}'))));
    assert.equal(peak, 1);
  });

  it('layers listed in load_layers are loaded by the host and reported', async () => {
    const h = host('auto');
    const out = await h.dispatcher.dispatch(call('test_producer', '{}'));
    assert.deepEqual(out.loadedLayers, ['loaded:a']);
  });

  it('a stopped run cancels a pending approval', async () => {
    const h = host();
    const abort = new AbortController();
    const pending = h.dispatcher.dispatch({ ...call('test_write', '{}'), signal: abort.signal });
    await new Promise((r) => setImmediate(r));
    abort.abort();
    const r = (await pending).result;
    assert.ok(!r.ok && r.error.code === 'cancelled');
  });

  it('audits every call with caller, decision and outcome', async () => {
    const h = host();
    await h.dispatcher.dispatch(call('nope', '{}'));
    await h.dispatcher.dispatch(call('test.user_only', {}, 'user'));
    assert.deepEqual(
      h.audit.map((e) => [e.toolId, e.caller, e.decision, e.outcome, e.errorCode]),
      [
        ['nope', 'model', 'refused', 'error', 'unknown_tool'],
        ['test.user_only', 'user', 'user_action', 'ok', null],
      ],
    );
  });
});

describe('dispatcher: sources are judged below the tools', () => {
  const opened: string[][] = [];
  let prepared = 0;
  const reader = testTool({
    id: 'test.read_source',
    title: 'Read source',
    description: 'Reads a source.',
    input: z.object({ path: sourceParam('a path') }),
    safety: 'read',
    summary: (a) => `read ${a.path}`,
    prepare: async (a) => {
      prepared++;
      return { args: a };
    },
    execute: async () => ({ open: opened.at(-1) ?? null }),
  });
  function host() {
    const requests: { network?: string[]; rememberable: boolean }[] = [];
    const { dispatcher, broker } = testDispatcher([reader], {
      announce: (r) => requests.push(r),
      hooks: {
        policy: () => ({ mode: 'auto', askForReads: false }),
        privatePaths: { isPrivate: (p) => p.startsWith('/home/me/.config/Mapwright'), mentionedIn: () => false },
        openEgress: (origins) => {
          opened.push([...origins]);
          return () => opened.push([]);
        },
      },
    });
    return { dispatcher, broker, requests };
  }

  it('refuses the app’s own files before prepare runs', async () => {
    const { dispatcher } = host();
    const before = prepared;
    const out = await dispatcher.dispatch(call('test_read_source', { path: '/home/me/.config/Mapwright/mapwright.sqlite' }));
    assert.equal(out.result.ok ? null : out.result.error.code, 'not_allowed');
    assert.equal(prepared, before);
  });

  it('asks for a network read even in Auto mode, and opens the gate only while it runs', async () => {
    const { dispatcher, broker, requests } = host();
    const pending = dispatcher.dispatch(call('test_read_source', { path: '/vsicurl/https://example.org/a.tif' }));
    while (!requests.length) await new Promise((r) => setImmediate(r));
    assert.deepEqual(requests[0]!.network, ['https://example.org:443']);
    assert.equal(requests[0]!.rememberable, false);
    assert.deepEqual(opened, [], 'nothing is open while the dialog waits');
    broker.decide(broker.list()[0]!.id, 'approve', false);
    const out = await pending;
    assert.deepEqual(out.result.ok && out.result.data, { open: ['https://example.org:443'] });
    assert.deepEqual(opened.at(-1), [], 'closed after the call');
  });
});

describe('dispatcher: a read the egress gate refused says so', () => {
  it('adds the refused origin and what to do to the error', async () => {
    const failing = testTool({
      id: 'test.read_layer',
      title: 'Read layer',
      description: 'Reads a layer whose source is on the network.',
      input: z.object({}),
      safety: 'read',
      summary: () => 'read',
      execute: async () => {
        throw new Error('HTTP response code: 403');
      },
    });
    const { dispatcher } = testDispatcher([failing], { hooks: { egressRefusedSince: () => ['https://tiles.example.org:443'] } });
    const out = await dispatcher.dispatch(call('test_read_layer', {}));
    assert.equal(out.result.ok, false);
    assert.match(!out.result.ok ? (out.result.error.hint ?? '') : '', /egress gate refused https:\/\/tiles\.example\.org:443/);
  });
});

describe('dispatcher: Commands pass the same gate', () => {
  const setMode = defineCommand({
    id: 'commands.set_mode',
    title: 'Set approval mode',
    input: z.object({ mode: z.enum(['ask', 'auto', 'plan']) }),
    run: async (a) => ({ mode: a.mode }),
  });
  const undo = defineCommand({
    id: 'commands.undo',
    title: 'Undo',
    input: z.object({}),
    run: async () => {
      throw new ToolFailure('not_allowed', 'Nothing to undo.', false);
    },
  });
  const broken = defineCommand({
    id: 'commands.broken',
    title: 'Broken',
    input: z.object({}),
    run: async () => {
      throw new Error('disk full');
    },
  });

  it('validates, runs and audits a command as the person’s own action', async () => {
    const s = setup();
    const out = await s.dispatcher.runCommand({ command: setMode, rawArgs: { mode: 'auto', extra: 1 }, conversationId: 'k1' });
    assert.deepEqual(out.result, { ok: true, data: { mode: 'auto' } });
    assert.deepEqual(s.audit.map(auditRow), [
      ['commands.set_mode', 'user', null, null, 'user_action', 'user', 'ok', null, null, null, 'k1'],
    ]);
    assert.deepEqual(s.audit[0]!.args, { mode: 'auto' }, 'the validated parameters, extra fields dropped');
    assert.deepEqual(s.announced, [], 'a command never asks');
  });

  it('a ToolFailure keeps its code (not_allowed); any other error is a handler_error; both audited', async () => {
    const s = setup();
    const refused = (await s.dispatcher.runCommand({ command: undo, rawArgs: {}, conversationId: 'k1' })).result;
    assert.deepEqual(refused, { ok: false, error: { code: 'not_allowed', message: 'Nothing to undo.', retryable: false } });
    const failed = (await s.dispatcher.runCommand({ command: broken, rawArgs: {}, conversationId: 'k1' })).result;
    assert.ok(!failed.ok && failed.error.code === 'handler_error' && /disk full/.test(failed.error.message));
    assert.deepEqual(s.audit.map(auditRow), [
      ['commands.undo', 'user', null, null, 'user_action', 'user', 'error', 'not_allowed', null, null, 'k1'],
      ['commands.broken', 'user', null, null, 'user_action', 'user', 'error', 'handler_error', null, null, 'k1'],
    ]);
  });

  it('bad parameters are invalid_params naming the field, and the refusal is audited', async () => {
    const s = setup();
    const bad = (await s.dispatcher.runCommand({ command: setMode, rawArgs: { mode: 'yolo' }, conversationId: 'k1' })).result;
    assert.ok(!bad.ok && bad.error.code === 'invalid_params' && !bad.error.retryable);
    assert.match(!bad.ok ? bad.error.message : '', /^Invalid parameters for commands\.set_mode: mode: /);
    assert.deepEqual(s.audit.map(auditRow), [
      ['commands.set_mode', 'user', null, null, 'refused', 'system', 'error', 'invalid_params', null, null, 'k1'],
    ]);
  });
});

describe('dispatcher: a call refused by the loop guard is audited', () => {
  it('records the refusal under the tool’s id, version and hash, without running it', async () => {
    const s = setup();
    const out = s.dispatcher.refuse(call('test_echo', '{"n":7}'), toolError('loop_detected', 'Already made twice.', false));
    assert.ok(!out.result.ok && out.result.error.code === 'loop_detected');
    assert.equal(out.durationMs, null);
    const [entry] = s.audit;
    assert.deepEqual(
      { ...entry, definitionHash: typeof entry!.definitionHash },
      {
        conversationId: 'k1',
        runId: 'r1',
        caller: 'model',
        toolId: 'test.echo',
        toolVersion: '1',
        definitionHash: 'string',
        args: { n: 7 },
        decision: 'refused',
        decidedBy: 'policy',
        outcome: 'error',
        errorCode: 'loop_detected',
        durationMs: null,
      },
    );
  });
});

describe('dispatcher: produced layers may bring their own info', () => {
  const info: LayerInfo = testLayer({ info: { geometryType: 'Polygon', featureCount: 2, sublayers: ['a'] } }).info;

  function host(items: unknown[]) {
    const requests: LoadLayerRequest[] = [];
    const { dispatcher } = testDispatcher([producerTool(items)], {
      hooks: { policy: () => ({ mode: 'auto', askForReads: false }), loadProduced: async (r) => (requests.push(r), r.name ?? r.path) },
    });
    return { dispatcher, requests };
  }

  it('a valid info reaches the host; a malformed one is dropped, not the layer', async () => {
    const h = host([
      { path: '/out/a.gpkg|layername=a', name: 'a', info },
      { path: '/out/b.gpkg', name: 'b', info: { kind: 'nonsense' } },
      { name: 'no path' },
    ]);
    const out = await h.dispatcher.dispatch(call('test_producer', '{}'));
    assert.deepEqual(out.loadedLayers, ['a', 'b']);
    assert.deepEqual(h.requests[0], { path: '/out/a.gpkg|layername=a', name: 'a', info });
    assert.equal(h.requests[1]!.info, undefined);
  });
});

describe('dispatcher: edits (issue #14)', () => {
  const seen: (number | null | undefined)[] = [];
  const bulk = testTool({
    id: 'test.bulk',
    title: 'Bulk',
    description: 'Deletes n rows. Returns the change id.',
    input: z.object({ n: z.number().int() }),
    safety: 'write',
    summary: (a) => `delete ${a.n}`,
    prepare: async (a) => ({
      args: a,
      sample: { columns: ['name'], rows: [{ fid: 1, before: ['x'], after: null }], total: a.n },
      ...(a.n > 10 ? { escalate: 'destructive' as const } : {}),
    }),
    execute: async (_a, ctx) => {
      seen.push(ctx.changeId);
      return { changeId: ctx.changeId };
    },
  });
  function host(mode: 'ask' | 'auto') {
    const requests: { safety: string; rememberable: boolean; sample?: { total: number } }[] = [];
    let snapshots = 0;
    const { dispatcher, broker } = testDispatcher([bulk], {
      announce: (r) => requests.push(r),
      hooks: { policy: () => ({ mode, askForReads: false }), snapshot: () => ++snapshots + 40 },
    });
    return { dispatcher, broker, requests };
  }

  it('a call prepare raises asks as destructive even in Auto, is never remembered, and shows its rows', async () => {
    const { dispatcher, broker, requests } = host('auto');
    const pending = dispatcher.dispatch(call('test_bulk', { n: 25 }));
    while (!requests.length) await new Promise((r) => setImmediate(r));
    assert.equal(requests[0]!.safety, 'destructive');
    assert.equal(requests[0]!.rememberable, false);
    assert.equal(requests[0]!.sample?.total, 25);
    broker.decide(broker.list()[0]!.id, 'approve', true);
    const out = await pending;
    assert.deepEqual(out.result.ok && out.result.data, { changeId: 41 }, 'the tool runs with the id of the snapshot taken for it');
    // Remembering was refused: the next raised call asks again.
    const again = dispatcher.dispatch(call('test_bulk', { n: 30 }));
    while (requests.length < 2) await new Promise((r) => setImmediate(r));
    broker.decide(broker.list()[0]!.id, 'reject', false);
    assert.equal((await again).result.ok, false);
  });

  it('the same tool below the threshold runs under the write policy (Auto: no dialog)', async () => {
    const { dispatcher, requests } = host('auto');
    const out = await dispatcher.dispatch(call('test_bulk', { n: 3 }));
    assert.deepEqual(out.result.ok && out.result.data, { changeId: 41 });
    assert.equal(requests.length, 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { decideApproval, type PolicyInput } from './approvalPolicy.js';

const tool = (safety: 'read' | 'write' | 'destructive', extra: Partial<ToolDefinition> = {}) =>
  ({ id: `t.${safety}`, safety, ...extra }) as unknown as ToolDefinition;
const base: Omit<PolicyInput, 'def'> = { caller: 'model', mode: 'ask', askForReads: false, granted: false };

describe('approval policy', () => {
  it('Ask: reads run, writes ask (rememberable), destructive asks (never remembered)', () => {
    assert.deepEqual(decideApproval({ ...base, def: tool('read') }), { kind: 'run', decision: 'not_needed' });
    assert.deepEqual(decideApproval({ ...base, def: tool('write') }), { kind: 'ask', rememberable: true });
    assert.deepEqual(decideApproval({ ...base, def: tool('destructive') }), { kind: 'ask', rememberable: false });
  });
  it('the reads-ask setting makes reads ask', () => {
    assert.equal(decideApproval({ ...base, askForReads: true, def: tool('read') }).kind, 'ask');
  });
  it('a session grant skips the dialog for writes only', () => {
    assert.deepEqual(decideApproval({ ...base, granted: true, def: tool('write') }), { kind: 'run', decision: 'granted' });
    assert.equal(decideApproval({ ...base, granted: true, def: tool('destructive') }).kind, 'ask');
  });
  it('Auto: writes run, destructive and network still ask', () => {
    assert.deepEqual(decideApproval({ ...base, mode: 'auto', def: tool('write') }), { kind: 'run', decision: 'auto' });
    assert.equal(decideApproval({ ...base, mode: 'auto', def: tool('destructive') }).kind, 'ask');
    assert.deepEqual(decideApproval({ ...base, mode: 'auto', def: tool('read', { network: true }) }), { kind: 'ask', rememberable: false });
  });
  it('critical risk (a plugin declares it) always asks and is never remembered, even granted, in Auto, or from the GUI', () => {
    const critical = tool('write', { riskLevel: 'critical' });
    for (const input of [base, { ...base, mode: 'auto' as const }, { ...base, granted: true }, { ...base, caller: 'user' as const }]) {
      assert.deepEqual(decideApproval({ ...input, def: critical }), { kind: 'ask', rememberable: false });
    }
    assert.deepEqual(decideApproval({ ...base, mode: 'auto', def: tool('write', { riskLevel: 'high' }) }), {
      kind: 'run',
      decision: 'auto',
    });
  });
  it("a plugin's declared endpoint may be approved once per tool version; a source in the arguments never", () => {
    const endpoint = tool('read', { network: true, origins: ['https://api.example.com'] });
    assert.deepEqual(decideApproval({ ...base, def: endpoint }), { kind: 'ask', rememberable: true });
    assert.deepEqual(decideApproval({ ...base, granted: true, def: endpoint }), { kind: 'run', decision: 'granted' });
    assert.deepEqual(
      decideApproval({ ...base, mode: 'auto', def: endpoint }),
      { kind: 'ask', rememberable: true },
      'Auto does not approve a network call',
    );
    assert.deepEqual(decideApproval({ ...base, granted: true, def: endpoint, networkOrigins: ['https://other.example'] }), {
      kind: 'ask',
      rememberable: false,
    });
    assert.equal(decideApproval({ ...base, mode: 'plan', granted: true, def: endpoint }).kind, 'refuse');
  });
  it('Plan: only reads run for the model', () => {
    assert.equal(decideApproval({ ...base, mode: 'plan', def: tool('write') }).kind, 'refuse');
    assert.equal(decideApproval({ ...base, mode: 'plan', def: tool('read') }).kind, 'run');
  });
  it('user_only tools are refused to the model, run for the person', () => {
    assert.equal(decideApproval({ ...base, def: tool('write', { caller: 'user_only' }) }).kind, 'refuse');
    assert.deepEqual(decideApproval({ ...base, caller: 'user', def: tool('write', { caller: 'user_only' }) }), {
      kind: 'run',
      decision: 'user_action',
    });
  });
  it('a network source makes any call network: asks in every mode, never remembered, even when granted; refused in Plan', () => {
    const net = { networkOrigins: ['https://example.org:443'] };
    for (const mode of ['ask', 'auto'] as const) {
      assert.deepEqual(decideApproval({ ...base, ...net, mode, def: tool('read') }), { kind: 'ask', rememberable: false });
      assert.deepEqual(decideApproval({ ...base, ...net, mode, granted: true, def: tool('write') }), { kind: 'ask', rememberable: false });
    }
    assert.equal(decideApproval({ ...base, ...net, mode: 'plan', def: tool('read') }).kind, 'refuse');
    assert.deepEqual(decideApproval({ ...base, ...net, caller: 'user', def: tool('write') }), { kind: 'ask', rememberable: false });
  });
  it("a GUI call carrying a path or SQL asks like the model's, and is never remembered", () => {
    assert.deepEqual(decideApproval({ ...base, caller: 'user', unverifiedGuiInput: true, def: tool('write') }), {
      kind: 'ask',
      rememberable: false,
    });
    assert.deepEqual(decideApproval({ ...base, caller: 'user', def: tool('write') }), { kind: 'run', decision: 'user_action' });
  });
  it('origins granted for the project: the network part is not asked again, the write policy still applies (issue #13)', () => {
    const net = { networkOrigins: ['http://tiles.example:80'], grantedOrigins: new Set(['http://tiles.example:80']) };
    assert.deepEqual(decideApproval({ ...base, ...net, def: tool('write') }), { kind: 'ask', rememberable: true });
    assert.deepEqual(decideApproval({ ...base, ...net, mode: 'auto', def: tool('write') }), { kind: 'run', decision: 'auto' });
    assert.deepEqual(decideApproval({ ...base, ...net, granted: true, def: tool('write') }), { kind: 'run', decision: 'granted' });
    assert.deepEqual(decideApproval({ ...base, ...net, def: tool('read') }), { kind: 'run', decision: 'not_needed' });
    assert.deepEqual(decideApproval({ ...base, ...net, caller: 'user', def: tool('write') }), { kind: 'run', decision: 'user_action' });
    // Still a network call for Plan mode; destructive still asks every time.
    assert.equal(decideApproval({ ...base, ...net, mode: 'plan', def: tool('read') }).kind, 'refuse');
    assert.deepEqual(decideApproval({ ...base, ...net, mode: 'auto', def: tool('destructive') }), { kind: 'ask', rememberable: false });
    // One origin not granted, or a tool that declares itself network: asked as before.
    const mixed = { networkOrigins: ['http://tiles.example:80', 'https://other.example:443'], grantedOrigins: net.grantedOrigins };
    assert.deepEqual(decideApproval({ ...base, ...mixed, mode: 'auto', def: tool('write') }), { kind: 'ask', rememberable: false });
    assert.deepEqual(decideApproval({ ...base, ...net, mode: 'auto', def: tool('write', { network: true }) }), {
      kind: 'ask',
      rememberable: false,
    });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { ApprovalBroker, type DurableGrants } from './approvalBroker.js';

/** A project's kept grants, in memory. */
function durableGrants(): DurableGrants & { kept: Set<string> } {
  const kept = new Set<string>();
  return { kept, has: (t, h) => kept.has(`${t}#${h}`), add: (t, h) => void kept.add(`${t}#${h}`) };
}

const base: Omit<ApprovalRequest, 'id'> = {
  callId: 'c1',
  toolId: 'weather.forecast',
  title: 'Forecast',
  description: '',
  summary: '',
  safety: 'read',
  args: {},
  rememberable: true,
};

/** Asks once and answers "approve, remember" as the person. */
async function approveRemembering(broker: ApprovalBroker, request: Omit<ApprovalRequest, 'id'>, hash: string): Promise<void> {
  const pending = broker.request(request, hash, new AbortController().signal);
  const [asked] = broker.list();
  assert.ok(asked);
  broker.decide(asked.id, 'approve', true);
  await pending;
}

describe('approval broker: grants', () => {
  it('a declared endpoint approved with "remember" is kept in the project: a restart does not ask, a new definition does', async () => {
    const durable = durableGrants();
    const first = new ApprovalBroker(
      () => {},
      () => {},
      durable,
    );
    await approveRemembering(first, { ...base, network: ['https://api.example.com'] }, 'hash-v1');
    assert.deepEqual([...durable.kept], ['weather.forecast#hash-v1']);
    const restarted = new ApprovalBroker(
      () => {},
      () => {},
      durable,
    );
    assert.equal(restarted.isGranted('weather.forecast', 'hash-v1'), true);
    assert.equal(restarted.isGranted('weather.forecast', 'hash-v2'), false, 'a new version (another hash) asks again');
  });

  it('"allow for this session" of a tool that is not a network call lasts only the session', async () => {
    const durable = durableGrants();
    const broker = new ApprovalBroker(
      () => {},
      () => {},
      durable,
    );
    await approveRemembering(broker, { ...base, toolId: 'style.set_color', safety: 'write' }, 'h');
    assert.equal(broker.isGranted('style.set_color', 'h'), true);
    assert.equal(durable.kept.size, 0);
    assert.equal(
      new ApprovalBroker(
        () => {},
        () => {},
        durable,
      ).isGranted('style.set_color', 'h'),
      false,
    );
  });

  it('an approval without "remember", or of a request that is not rememberable, keeps nothing', async () => {
    const durable = durableGrants();
    const broker = new ApprovalBroker(
      () => {},
      () => {},
      durable,
    );
    const pending = broker.request({ ...base, network: ['https://api.example.com'] }, 'h', new AbortController().signal);
    broker.decide(broker.list()[0]!.id, 'approve', false);
    await pending;
    const once = broker.request({ ...base, rememberable: false, network: ['https://x.example'] }, 'h2', new AbortController().signal);
    broker.decide(broker.list()[0]!.id, 'approve', true);
    await once;
    assert.equal(durable.kept.size, 0);
    assert.equal(broker.isGranted('weather.forecast', 'h'), false);
  });
});

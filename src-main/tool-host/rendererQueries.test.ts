import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { RendererQueries } from './rendererQueries.js';

describe('RendererQueries', () => {
  it('resolves with the renderer’s answer', async () => {
    let asked: { queryId: string; kind: string } | null = null;
    const q = new RendererQueries(((_n: string, p: { queryId: string; kind: string }) => (asked = p)) as never, 1000);
    const pending = q.ask('current_view', new AbortController().signal);
    assert.equal(asked!.kind, 'current_view');
    assert.equal(q.answer(asked!.queryId, true, { zoom: 3 }, undefined), true);
    assert.deepEqual(await pending, { zoom: 3 });
    assert.equal(q.answer(asked!.queryId, true, {}, undefined), false, 'answered once');
  });
  it('times out when no window answers', async () => {
    const q = new RendererQueries((() => undefined) as never, 50);
    await assert.rejects(
      q.ask('screenshot', new AbortController().signal),
      (e: unknown) => e instanceof ToolFailure && e.code === 'timeout',
    );
  });
  it('Stop cancels the wait', async () => {
    const q = new RendererQueries((() => undefined) as never, 5000);
    const abort = new AbortController();
    const pending = q.ask('screenshot', abort.signal);
    abort.abort();
    await assert.rejects(pending, (e: unknown) => e instanceof ToolFailure && e.code === 'cancelled');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { RendererQueries } from '../tool-host/rendererQueries.js';
import { createMapHandle } from './mapHandle.js';

/** The map handle trusts no answer from the renderer: each is validated before a tool sees it. */
function handleAnswering(value: unknown) {
  const asked: string[] = [];
  const queries = { ask: async (kind: string) => (asked.push(kind), value) } as unknown as RendererQueries;
  return { map: createMapHandle(queries, {} as ProjectHandle), asked };
}

describe('map handle: selection', () => {
  const signal = new AbortController().signal;

  it('asks the renderer for the selection and passes a valid answer on', async () => {
    const { map, asked } = handleAnswering({ layerId: 'L1', count: 2, fids: [3, 4], capped: false });
    assert.deepEqual(await map.selection(signal), { layerId: 'L1', count: 2, fids: [3, 4], capped: false });
    assert.deepEqual(asked, ['selection']);
    assert.deepEqual(await handleAnswering({ count: 0 }).map.selection(signal), { count: 0 });
  });

  it('refuses a malformed answer with a tool error', async () => {
    for (const bad of [null, { count: 2 }, { layerId: 'L1', count: 1, fids: ['x'], capped: false }]) {
      await assert.rejects(
        handleAnswering(bad).map.selection(signal),
        (e: unknown) => e instanceof ToolFailure && e.code === 'handler_error',
      );
    }
  });
});

describe('map handle: fitBounds waits for the map to settle (issue 17)', () => {
  const view = { center: [-79.4, 35.6], zoom: 6.3, bounds: [-84.3, 33.9, -75.5, 36.6], bearing: 0, pitch: 0 };
  const bbox: [number, number, number, number] = [-84.32, 33.88, -75.46, 36.59];

  /** Real RendererQueries: the question goes out as an event, the answer comes back by id. */
  function withQueries(fitTimeoutMs?: number) {
    const asked: { queryId: string; kind: string; bbox?: unknown }[] = [];
    const queries = new RendererQueries(((_name: string, payload: (typeof asked)[number]) => asked.push(payload)) as never, 5000);
    const map = createMapHandle(queries, {} as ProjectHandle, fitTimeoutMs === undefined ? {} : { fitTimeoutMs });
    return { map, queries, asked };
  }

  it('asks the renderer to fit and resolves only with its settled answer', async () => {
    const { map, queries, asked } = withQueries();
    let settled = false;
    const pending = map.fitBounds(bbox, new AbortController().signal).then((v) => ((settled = true), v));
    assert.deepEqual(
      asked.map(({ kind, bbox: b }) => ({ kind, bbox: b })),
      [{ kind: 'fit_bounds', bbox }],
    );
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(settled, false, 'still waiting while the map moves');
    assert.equal(queries.answer(asked[0]!.queryId, true, view, undefined), true);
    assert.deepEqual(await pending, view);
  });

  it('without a window it does not hang: it gives up after the cap with no view', async () => {
    const { map, asked } = withQueries(60);
    const t0 = Date.now();
    assert.equal(await map.fitBounds(bbox, new AbortController().signal), null);
    assert.ok(Date.now() - t0 < 1000, 'returned at the cap');
    assert.equal(asked.length, 1);
  });

  it('a renderer error or a malformed view is no view, not a failure; Stop is a cancel', async () => {
    const failing = withQueries();
    const pending = failing.map.fitBounds(bbox, new AbortController().signal);
    failing.queries.answer(failing.asked[0]!.queryId, false, undefined, 'The map is not ready yet');
    assert.equal(await pending, null);
    assert.equal(await handleAnswering({ zoom: 'x' }).map.fitBounds(bbox, new AbortController().signal), null);

    const stop = new AbortController();
    const stopped = withQueries().map.fitBounds(bbox, stop.signal);
    stop.abort();
    await assert.rejects(stopped, (e: unknown) => e instanceof ToolFailure && e.code === 'cancelled');
  });

  it('the default cap is a few seconds, longer than the renderer’s 3 s wait for the map to settle', async () => {
    const options: unknown[] = [];
    const queries = { ask: async (_k: string, _s: AbortSignal, o: unknown) => (options.push(o), view) } as unknown as RendererQueries;
    await createMapHandle(queries, {} as ProjectHandle).fitBounds(bbox, new AbortController().signal);
    assert.deepEqual(options, [{ bbox, timeoutMs: 4000 }]);
  });
});

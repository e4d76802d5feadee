import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { RendererQueries } from '../tool-host/rendererQueries.js';
import { createMapHandle } from './mapHandle.js';

/** The map handle trusts no answer from the renderer: each is validated before a tool sees it. */
function handleAnswering(value: unknown) {
  const asked: string[] = [];
  const queries = { ask: async (kind: string) => (asked.push(kind), value) } as unknown as RendererQueries;
  return { map: createMapHandle(() => undefined, queries, {} as ProjectHandle), asked };
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

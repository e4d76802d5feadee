import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Handles } from '../../src-shared/tools/handles.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { mapTools } from './index.js';

/** `map.export` below the dispatcher: defaults, the spec handed to the map handle, what the model reads. */
const tool = mapTools.find((t) => t.id === 'map.export') as ToolDefinition;

async function run(args: Record<string, unknown>) {
  const specs: unknown[] = [];
  const map = {
    exportLayout: async (spec: unknown) => (specs.push(spec), { path: '/p-outputs/x.pdf', width: 1754, height: 1240, pages: 1, dpi: 150 }),
  } as unknown as Handles['map'];
  const data = await tool.execute(tool.input.parse(args), {
    handles: { map } as Handles,
    caller: 'model',
    signal: new AbortController().signal,
    progress: () => undefined,
  });
  return { data, specs };
}

describe('map.export', () => {
  it('writes a file (asks as a write), runs in the renderer, and the person may run it', () => {
    assert.equal(tool.safety, 'write');
    assert.equal(tool.exec, 'renderer');
    assert.equal(tool.userVisible, true);
    assert.deepEqual(tool.handles, ['map']);
  });

  it('defaults to A4 landscape without a title', async () => {
    const { data, specs } = await run({ format: 'pdf' });
    assert.deepEqual(specs, [{ title: '', pageSize: 'A4', orientation: 'landscape', format: 'pdf' }]);
    assert.deepEqual(data, {
      path: '/p-outputs/x.pdf',
      format: 'pdf',
      page_size: 'A4',
      orientation: 'landscape',
      width: 1754,
      height: 1240,
      dpi: 150,
      pages: 1,
    });
    assert.ok(tool.output!.safeParse(data).success, 'the declared output schema holds');
  });

  it('passes title, size and orientation; refuses unknown sizes and long titles', async () => {
    const { specs } = await run({ format: 'png', title: 'Rivers', page_size: 'Letter', orientation: 'portrait' });
    assert.deepEqual(specs, [{ title: 'Rivers', pageSize: 'Letter', orientation: 'portrait', format: 'png' }]);
    assert.equal(tool.input.safeParse({ format: 'png', page_size: 'A5' }).success, false);
    assert.equal(tool.input.safeParse({ format: 'tiff' }).success, false);
    assert.equal(tool.input.safeParse({ format: 'pdf', title: 'x'.repeat(121) }).success, false);
  });

  it('summary and notice for the person', () => {
    assert.equal(tool.summary(tool.input.parse({ format: 'pdf', title: 'Rivers' })), 'Export the map as PDF (A4 landscape): “Rivers”');
    assert.equal(
      tool.notice!({ path: '/o/a.png', format: 'png', page_size: 'A4', orientation: 'portrait', width: 1, height: 1, dpi: 150, pages: 1 }),
      'Exported the map layout to /o/a.png',
    );
    assert.equal(tool.notice!({}), null);
  });
});

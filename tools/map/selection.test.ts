import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MapSelection, reportSelection } from '../../src-shared/domain/mapSelection.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { fakeLayer, fakeProject } from '../toolTestFakes.js';
import { mapTools } from './index.js';

/**
 * `map.selection` below the dispatcher: the renderer's answer (validated by main's map handle,
 * faked here) becomes what the model reads, with the layer's name taken from the project.
 */
const tool = mapTools.find((t) => t.id === 'map.selection') as ToolDefinition;
const nc = fakeLayer({ id: 'L1', name: 'nc', kind: 'vector', source: '/data/nc.gpkg' });

async function run(answer: MapSelection) {
  const handles = { project: fakeProject([nc]), map: { selection: async () => answer } as unknown as Handles['map'] } as unknown as Handles;
  const signal = new AbortController().signal;
  return (await tool.execute(tool.input.parse({}), { handles, caller: 'model', signal, progress: () => undefined })) as Record<
    string,
    unknown
  >;
}

describe('map.selection', () => {
  it('is a renderer read offered to the model', () => {
    assert.equal(tool.exec, 'renderer');
    assert.equal(tool.safety, 'read');
    assert.notEqual(tool.caller, 'user_only');
  });

  it('names the layer from the project and passes the ids through', async () => {
    assert.deepEqual(await run({ layerId: 'L1', count: 3, fids: [2, 5, 9], capped: false }), {
      layerId: 'L1',
      layerName: 'nc',
      count: 3,
      fids: [2, 5, 9],
      capped: false,
    });
  });

  it('says in a sentence that nothing is selected', async () => {
    const empty = await run({ count: 0 });
    assert.equal(empty.count, 0);
    assert.match(String(empty.message), /Nothing is selected/);
    const gone = await run({ layerId: 'removed', count: 1, fids: [1], capped: false });
    assert.equal(gone.count, 0, 'a layer no longer in the project is no selection');
  });
});

describe('reportSelection (the renderer’s answer)', () => {
  it('lists the first 1,000 ids ascending and says it is capped', () => {
    const fids = Array.from({ length: 1500 }, (_, i) => 1500 - i);
    const report = reportSelection('L1', new Set(fids));
    assert.ok(report.count === 1500 && report.capped);
    assert.equal(report.fids.length, 1000);
    assert.deepEqual(report.fids.slice(0, 3), [1, 2, 3]);
    assert.ok(MapSelection.safeParse(report).success, 'main accepts it');
  });

  it('is count 0 without a layer or ids', () => {
    assert.deepEqual(reportSelection(null, [1]), { count: 0 });
    assert.deepEqual(reportSelection('L1', []), { count: 0 });
  });

  it('main refuses a malformed answer', () => {
    assert.equal(MapSelection.safeParse({ layerId: 'L1', count: 2, fids: Array(1001).fill(1), capped: true }).success, false);
    assert.equal(MapSelection.safeParse({ count: 3 }).success, false);
  });
});

/**
 * The annotation tools through the real tool host and project store (issue #14): the model adds
 * and lists, only the person moves and deletes, every change is announced to the map, and
 * Undo brings a deleted annotation back (and announces it too).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { EventName } from '../../src-shared/bridge/contract.js';
import type { Annotation } from '../../src-shared/domain/annotation.js';
import { PrivatePaths } from '../security/privatePaths.js';
import { tempProjectStores } from '../store/testing/tempHomes.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createToolHost } from './createToolHost.js';

const openProject = tempProjectStores('mapwright-annotation-tools-');

function host() {
  const { home, store } = openProject();
  const sent: Annotation[][] = [];
  const tools = createToolHost({
    store,
    worker: {} as GisWorkerClient,
    emit: (name: EventName, payload: unknown) => {
      if (name === 'annotations/changed') sent.push((payload as { annotations: Annotation[] }).annotations);
    },
    privatePaths: new PrivatePaths([join(home, 'private')]),
    egress: { openFor: () => () => undefined, recent: () => [] },
    runIsLive: () => false,
    send: () => undefined,
  });
  const asModel = (name: string, args: Record<string, unknown>) =>
    tools.dispatcher.dispatch({
      name,
      rawArgs: JSON.stringify(args),
      caller: 'model',
      callId: `c-${Math.random()}`,
      runId: 'run-1',
      conversationId: store.conversationId,
      signal: new AbortController().signal,
    });
  return { store, tools, sent, asModel };
}

const NOTE = { kind: 'note', text: 'Bridge closed', geometry: { type: 'Point', coordinates: [6.13, 49.61] }, color: '#FF00AA' };

describe('annotation tools', () => {
  it('the model adds a note (approved in Auto) and lists it; the map is told', async () => {
    const h = host();
    await h.tools.trigger('commands.set_mode', { mode: 'auto' });
    const added = (await h.asModel('annotations_add', NOTE)).result;
    assert.ok(added.ok, JSON.stringify(added));
    const [stored] = h.store.annotations.list();
    assert.deepEqual([stored!.kind, stored!.text, stored!.color, stored!.createdBy], ['note', 'Bridge closed', '#ff00aa', 'model']);
    assert.deepEqual(h.sent.at(-1), [stored]);
    const listed = (await h.asModel('annotations_list', {})).result;
    assert.ok(listed.ok && (listed.data as { annotations: { id: string }[] }).annotations[0]!.id === stored!.id);
    h.store.close();
  });

  it('refuses a geometry of the wrong kind, projected coordinates and a note without text', async () => {
    const h = host();
    await h.tools.trigger('commands.set_mode', { mode: 'auto' });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...NOTE, kind: 'arrow' }, /an arrow takes a LineString geometry, not a Point/],
      [{ ...NOTE, geometry: { type: 'Point', coordinates: [500_000, 5_500_000] } }, /geometry\.coordinates/],
      [{ ...NOTE, text: '  ' }, /a note needs text/],
      [{ ...NOTE, color: 'red' }, /color/],
      [{ ...NOTE, text: 'x'.repeat(501) }, /text/],
    ];
    for (const [args, message] of cases) {
      const r = (await h.asModel('annotations_add', args)).result;
      assert.ok(!r.ok && r.error.code === 'invalid_params' && message.test(r.error.message), JSON.stringify(r));
    }
    assert.deepEqual(h.store.annotations.list(), []);
    h.store.close();
  });

  it('move and delete are never offered to the model and refused if it names them', async () => {
    const h = host();
    await h.tools.trigger('commands.set_mode', { mode: 'auto' });
    const offered = h.tools.registry.forModel().map((t) => t.def.id);
    assert.ok(offered.includes('annotations.add') && offered.includes('annotations.list'));
    assert.ok(!offered.includes('annotations.move') && !offered.includes('annotations.delete'));
    const { id } = h.store.annotations.add({
      kind: 'note',
      text: 'Bridge closed',
      geometry: { type: 'Point', coordinates: [6.13, 49.61] },
      color: '#ff00aa',
      createdBy: 'user',
    });
    for (const [name, args] of [
      ['annotations_delete', { id }],
      ['annotations_move', { id, geometry: { type: 'Point', coordinates: [0, 0] } }],
    ] as const) {
      const r = (await h.asModel(name, args)).result;
      assert.ok(!r.ok && r.error.code === 'not_allowed' && /can only be run by the person/.test(r.error.message), JSON.stringify(r));
    }
    assert.deepEqual(h.store.annotations.get(id)?.geometry.coordinates, [6.13, 49.61], 'nothing moved');
    h.store.close();
  });

  it('the person moves and deletes from the interface, and Undo brings it back', async () => {
    const h = host();
    const added = await h.tools.trigger('annotations.add', NOTE);
    assert.ok(added.ok, 'the person may add too, without a dialog');
    const [note] = h.store.annotations.list();
    assert.equal(note!.createdBy, 'user');
    const wrong = await h.tools.trigger('annotations.move', {
      id: note!.id,
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    });
    assert.ok(!wrong.ok && /a note takes a Point/.test(wrong.error.message));
    assert.ok((await h.tools.trigger('annotations.move', { id: note!.id, geometry: { type: 'Point', coordinates: [7, 50] } })).ok);
    assert.deepEqual(h.store.annotations.get(note!.id)?.geometry.coordinates, [7, 50]);
    assert.ok((await h.tools.trigger('annotations.delete', { id: note!.id })).ok);
    assert.deepEqual(h.sent.at(-1), []);
    const missing = await h.tools.trigger('annotations.delete', { id: note!.id });
    assert.ok(!missing.ok && /No annotation/.test(missing.error.message));

    assert.ok((await h.tools.trigger('commands.undo', {})).ok);
    const back = h.store.annotations.list();
    assert.deepEqual(
      back.map((a) => [a.id, a.geometry.coordinates]),
      [[note!.id, [7, 50]]],
    );
    assert.deepEqual(h.sent.at(-1), back, 'Undo re-sends the annotations');
    assert.ok((await h.tools.trigger('commands.undo', {})).ok);
    assert.deepEqual(h.store.annotations.get(note!.id)?.geometry.coordinates, [6.13, 49.61], 'the move is undone too');
    h.store.close();
  });
});

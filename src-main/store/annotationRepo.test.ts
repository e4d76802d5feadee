import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Annotation, type AnnotationGeometry } from '../../src-shared/domain/annotation.js';
import type { NewAnnotation } from './annotationRepo.js';
import { ProjectStore } from './projectStore.js';
import { tempHomes } from './testing/tempHomes.js';

const freshHome = tempHomes('mapwright-annotations-');

const note: NewAnnotation = {
  kind: 'note',
  text: 'Flooded here',
  geometry: { type: 'Point', coordinates: [6.1, 49.6] },
  color: '#FF0000',
  createdBy: 'model',
};
const arrow: NewAnnotation = {
  kind: 'arrow',
  text: '',
  geometry: {
    type: 'LineString',
    coordinates: [
      [6, 49],
      [6.2, 49.3],
    ],
  },
  color: '#00aa00',
  createdBy: 'user',
};
const square: AnnotationGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ],
  ],
};

describe('AnnotationRepo', () => {
  it('adds on top, keeps them across a reopen, lower-cases colours', () => {
    const home = freshHome();
    let store = ProjectStore.openInHome(home);
    const a = store.annotations.add(note);
    const b = store.annotations.add(arrow);
    assert.equal(a.color, '#ff0000');
    assert.deepEqual([a.order, b.order], [0, 1]);
    store.close();
    store = ProjectStore.openInHome(home);
    assert.deepEqual(store.annotations.list(), [a, b]);
    store.close();
  });

  it('moves and re-words one, and refuses a geometry of the wrong kind', () => {
    const store = ProjectStore.openInHome(freshHome());
    const a = store.annotations.add(note);
    const moved = store.annotations.updateGeometry(a.id, { type: 'Point', coordinates: [7, 50] });
    assert.deepEqual(moved.geometry, { type: 'Point', coordinates: [7, 50] });
    assert.equal(store.annotations.updateText(a.id, 'Dry now').text, 'Dry now');
    assert.throws(() => store.annotations.updateGeometry(a.id, square), /a note takes a Point geometry, not a Polygon/);
    assert.throws(() => store.annotations.updateGeometry('nope', { type: 'Point', coordinates: [0, 0] }), /No annotation/);
    assert.deepEqual(store.annotations.get(a.id)?.geometry.coordinates, [7, 50]);
    store.close();
  });

  it('removes one and keeps the order dense', () => {
    const store = ProjectStore.openInHome(freshHome());
    const [a, b, c] = [note, arrow, note].map((x) => store.annotations.add(x));
    store.annotations.remove(b!.id);
    assert.deepEqual(
      store.annotations.list().map((x) => [x.id, x.order]),
      [
        [a!.id, 0],
        [c!.id, 1],
      ],
    );
    store.close();
  });

  it('snapshot() and restore() put back exactly the list', () => {
    const store = ProjectStore.openInHome(freshHome());
    store.annotations.add(note);
    store.annotations.add({ ...arrow, kind: 'highlight', geometry: square });
    const saved = store.annotations.snapshot();
    const before = store.annotations.list();
    store.annotations.remove(before[0]!.id);
    store.annotations.add(note);
    store.annotations.restore(saved);
    assert.deepEqual(store.annotations.list(), before);
    assert.throws(() => store.annotations.restore('[{"id":"x"}]'));
    assert.deepEqual(store.annotations.list(), before, 'a bad snapshot changes nothing');
    store.close();
  });

  it('undo (a snapshot taken before a change) brings a deleted annotation back', () => {
    const store = ProjectStore.openInHome(freshHome());
    const a = store.annotations.add(note);
    const id = store.snapshots.take({ runId: null, conversationId: null, toolId: 'annotations.delete', summary: 'Delete' });
    store.annotations.remove(a.id);
    store.annotations.add(arrow);
    store.snapshots.restore(id);
    assert.deepEqual(store.annotations.list(), [a]);
    store.close();
  });
});

describe('Annotation schema', () => {
  const base = { id: 'a', text: '', color: '#123456', order: 0, createdBy: 'model', createdAt: 'now' };
  it('pairs each kind with its geometry type', () => {
    assert.ok(Annotation.safeParse({ ...base, kind: 'highlight', geometry: square }).success);
    const wrong = Annotation.safeParse({ ...base, kind: 'arrow', geometry: { type: 'Point', coordinates: [0, 0] } });
    assert.match(JSON.stringify(wrong.error?.issues), /an arrow takes a LineString geometry, not a Point/);
  });
  it('refuses coordinates outside lon/lat ranges, open rings and bad colours', () => {
    const bad = [
      { kind: 'note', geometry: { type: 'Point', coordinates: [500_000, 6_000_000] } },
      { kind: 'note', geometry: { type: 'Point', coordinates: [10, 91] } },
      {
        kind: 'highlight',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
      },
      { kind: 'arrow', geometry: { type: 'LineString', coordinates: [[0, 0]] } },
    ];
    for (const b of bad) assert.ok(!Annotation.safeParse({ ...base, ...b }).success, JSON.stringify(b));
    assert.ok(!Annotation.safeParse({ ...base, kind: 'note', color: 'red', geometry: { type: 'Point', coordinates: [0, 0] } }).success);
  });
  it('drops a height from a position', () => {
    const a = Annotation.parse({ ...base, kind: 'note', geometry: { type: 'Point', coordinates: [1, 2, 300] } });
    assert.deepEqual(a.geometry.coordinates, [1, 2]);
  });
});

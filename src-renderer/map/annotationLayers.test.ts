import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Annotation } from '../../src-shared/domain/annotation.js';
import {
  ANNOTATION_LAYER_IDS,
  annotationFeatures,
  arrowHeadImage,
  headBearing,
  labelAnchor,
  raiseAnnotationLayers,
  translated,
  type AnnotationTarget,
} from './annotationLayers.js';

const base = { color: '#ff00aa', order: 0, createdBy: 'model', createdAt: 'now' } as const;
const note: Annotation = { ...base, id: 'n', kind: 'note', text: 'Here', geometry: { type: 'Point', coordinates: [6, 49] } };
const arrow: Annotation = {
  ...base,
  id: 'a',
  kind: 'arrow',
  text: '',
  geometry: {
    type: 'LineString',
    coordinates: [
      [0, 0],
      [4, 0],
    ],
  },
};

describe('annotation layers', () => {
  it('an arrow head turns along the last segment, as the Mercator map shows it', () => {
    assert.equal(
      headBearing([
        [0, 0],
        [4, 0],
      ]),
      90,
    );
    assert.equal(
      headBearing([
        [0, 0],
        [0, 1],
      ]),
      0,
    );
    assert.equal(
      headBearing([
        [5, 5],
        [5, 5],
      ]),
      null,
    );
    // 45° on the map needs more latitude than longitude away from the equator.
    const b = headBearing([
      [0, 60],
      [1, 60.5],
    ])!;
    assert.ok(b > 40 && b < 50, String(b));
  });

  it('the head icon is a triangle with its tip at the top centre', () => {
    const { width, height, data } = arrowHeadImage(22);
    const alpha = (x: number, y: number) => data[(y * width + x) * 4 + 3]!;
    assert.deepEqual([width, height], [22, 22]);
    assert.ok(alpha(11, 20) === 255 && alpha(1, 20) > 100, 'the base is wide');
    assert.ok(alpha(1, 3) === 0 && alpha(20, 3) === 0, 'the top is narrow');
  });

  it('features: the shape, an arrow head, a label point only where there is text, in the annotation colour', () => {
    const { features } = annotationFeatures([note, arrow]);
    assert.deepEqual(
      features.map((f) => [f.properties!.id, f.properties!.part, f.geometry.type, f.properties!.color]),
      [
        ['n', 'shape', 'Point', '#ff00aa'],
        ['n', 'label', 'Point', '#ff00aa'],
        ['a', 'shape', 'LineString', '#ff00aa'],
        ['a', 'head', 'Point', '#ff00aa'],
      ],
    );
  });

  it('a dragged annotation is drawn at its new place; a drag stays within lon/lat ranges', () => {
    const moved = translated(note.geometry, 1, 2);
    const { features } = annotationFeatures([note], { id: 'n', geometry: moved });
    assert.deepEqual(features[0]!.geometry, { type: 'Point', coordinates: [7, 51] });
    assert.deepEqual(translated(note.geometry, 200, 60).coordinates, [180, 85]);
    const ring = translated(
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      1,
      1,
    );
    assert.deepEqual(labelAnchor(ring), [1.5, 1.5]);
  });

  it('raises the annotation layers above everything added after them', () => {
    let order = [...ANNOTATION_LAYER_IDS, 'project-layer'];
    const map: AnnotationTarget = {
      hasImage: () => true,
      addImage: () => undefined,
      getSource: () => ({}),
      addSource: () => undefined,
      getLayer: (id) => order.includes(id),
      addLayer: () => undefined,
      moveLayer: (id) => (order = [...order.filter((x) => x !== id), id]),
      getLayersOrder: () => order,
    };
    raiseAnnotationLayers(map);
    assert.deepEqual(order, ['project-layer', ...ANNOTATION_LAYER_IDS]);
  });
});

import { z } from 'zod';
import { AnnotationGeometry, GEOMETRY_OF_KIND, kindMismatch } from '../../src-shared/domain/annotation.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { annotationFacts, quoted } from './annotationFacts.js';
import { findAnnotation } from './findAnnotation.js';

/**
 * The person drags an annotation on the map (user only: the model adds, it never rearranges
 * what the person placed). A write, so it is snapshotted and Undo puts it back.
 */
export const moveAnnotation = defineTool({
  id: 'annotations.move',
  version: '1.0.0',
  group: 'annotations',
  icon: 'map',
  title: 'Move annotation',
  description: 'Gives an annotation a new geometry of its kind, in EPSG:4326 degrees. Returns the moved annotation.',
  input: z.object({
    id: z.string().min(1).describe('Annotation id'),
    geometry: AnnotationGeometry.describe('GeoJSON of its kind, [lon, lat] degrees'),
  }),
  safety: 'write',
  caller: 'user_only',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: () => 'Move annotation',
  async prepare(args, { handles }) {
    const annotation = findAnnotation(handles.project, args.id);
    const mismatch = kindMismatch(annotation.kind, args.geometry);
    if (mismatch)
      throw new ToolFailure('invalid_params', `geometry: ${mismatch}.`, false, `Give it a ${GEOMETRY_OF_KIND[annotation.kind]}.`);
    return { args, preview: { annotation: `${annotation.kind} ${quoted(annotation.text)}` } };
  },
  async execute(args, { handles }) {
    return { annotation: annotationFacts(handles.project.moveAnnotation(args.id, args.geometry)) };
  },
});

import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { quoted } from './annotationFacts.js';
import { findAnnotation } from './findAnnotation.js';

/**
 * The person deletes an annotation (user only). A write, not destructive: Undo brings it back,
 * and the person's own click is their approval.
 */
export const deleteAnnotation = defineTool({
  id: 'annotations.delete',
  version: '1.0.0',
  group: 'annotations',
  icon: 'map',
  title: 'Delete annotation',
  description: 'Deletes an annotation (Undo brings it back). Returns what was deleted.',
  input: z.object({ id: z.string().min(1).describe('Annotation id') }),
  safety: 'write',
  caller: 'user_only',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: () => 'Delete annotation',
  // Checked here, before the undo snapshot: a refused call must leave nothing to undo.
  async prepare(args, { handles }) {
    const annotation = findAnnotation(handles.project, args.id);
    return { args, preview: { annotation: `${annotation.kind} ${quoted(annotation.text)}` } };
  },
  async execute(args, { handles }) {
    const annotation = findAnnotation(handles.project, args.id);
    handles.project.removeAnnotation(annotation.id);
    return { deleted: { id: annotation.id, kind: annotation.kind, text: annotation.text } };
  },
});

import { z } from 'zod';
import { Annotation } from '../domain/annotation.js';

const AnnotationList = z.object({ annotations: z.array(Annotation) });

/**
 * The annotation layer (issue #14): the renderer reads the list and is told of every change.
 * Adding, moving and deleting go through `entries/trigger` (the `annotations.*` tools), so
 * they are validated, snapshotted for undo and audited like any other change.
 */
export const annotationMethods = {
  'annotations/list': { params: z.object({}).strict(), result: AnnotationList },
};

export const annotationEvents = {
  /** The whole list after any change: a tool, Undo, Revert. */
  'annotations/changed': AnnotationList,
};

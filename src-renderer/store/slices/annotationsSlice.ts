import type { Annotation } from '../../../src-shared/domain/annotation.js';
import type { AppState, SliceCreator } from '../storeTypes.js';

/**
 * The annotation layer as main last sent it (`annotations/list` at start, the whole list on
 * `annotations/changed`), bottom-first, and the one the person is moving (map drag mode).
 */
export interface AnnotationsSlice {
  annotations: Annotation[];
  /** The annotation a map drag moves, or null: set by the list's Move button. */
  movingAnnotationId: string | null;
  /** Why the person's last move or delete was refused, or null; shown in the list. */
  annotationError: string | null;
  setAnnotations(annotations: Annotation[]): void;
  setMovingAnnotation(id: string | null): void;
  setAnnotationError(message: string | null): void;
}

export const createAnnotationsSlice: SliceCreator<AnnotationsSlice> = (set) => ({
  annotations: [],
  movingAnnotationId: null,
  annotationError: null,
  setAnnotations: (annotations) =>
    set(
      (s) => ({
        annotations: [...annotations].sort((a, b) => a.order - b.order),
        // A deleted (or undone) annotation cannot be moved any more.
        movingAnnotationId: annotations.some((a) => a.id === s.movingAnnotationId) ? s.movingAnnotationId : null,
      }),
      false,
      'annotations/changed',
    ),
  setMovingAnnotation: (id) => set({ movingAnnotationId: id, annotationError: null }, false, 'annotations/moving'),
  setAnnotationError: (message) => set({ annotationError: message }, false, 'annotations/error'),
});

export const selectAnnotations = (s: AppState) => s.annotations;
export const selectMovingAnnotation = (s: AppState) => s.movingAnnotationId;
export const selectAnnotationError = (s: AppState) => s.annotationError;

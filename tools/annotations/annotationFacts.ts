import type { Annotation } from '../../src-shared/domain/annotation.js';

/** An annotation as the model reads it: no timestamps or drawing order, which it never needs. */
export function annotationFacts(a: Annotation) {
  return { id: a.id, kind: a.kind, text: a.text, color: a.color, geometry: a.geometry, created_by: a.createdBy };
}

/** A text for a one-line summary: quoted, and cut short. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
}

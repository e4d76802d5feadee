/**
 * A layer's data revision (Layer.editing.revision): above any it had and any given before in
 * this process, so a data URL is never reused for other data — not even after an undo puts an
 * older revision back in the layer list.
 */
let lastRevision = 0;
export function nextRevision(current = 0): number {
  lastRevision = Math.max(lastRevision + 1, current + 1, Date.now());
  return lastRevision;
}

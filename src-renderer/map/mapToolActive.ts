import { editToolActive } from '../store/editSessionStore.js';
import { measureActive } from '../store/measureStore.js';

/**
 * True while a map tool owns the map's clicks — an editing tool (drawing, reshaping) or the
 * measure tool — so selection and identify stand aside (useMapSelection.ts).
 */
export function mapToolActive(): boolean {
  return editToolActive() || measureActive();
}

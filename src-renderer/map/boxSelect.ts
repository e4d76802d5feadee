import type { Map as MapLibreMap } from 'maplibre-gl';

export interface ScreenPoint {
  x: number;
  y: number;
}

export interface BoxSelectHandlers {
  /** A shift-drag ended: the two corners in map pixels; `additive` with ctrl/cmd held too. */
  onBox(a: ScreenPoint, b: ScreenPoint, additive: boolean): void;
  /** A shift-click without a drag. */
  onShiftClick(point: ScreenPoint): void;
}

/** Below this a shift-drag is a shift-click (the hand shakes). */
const DRAG_THRESHOLD_PX = 4;
/** The browser's click follows the mouseup at once; this is ample. */
const SWALLOW_CLICK_MS = 500;

/**
 * Shift-drag draws a selection box. MapLibre's own shift-drag (box zoom) is turned off in the
 * map options; here the shift-mousedown is caught before MapLibre sees it (capture phase on the
 * map's outer container), so neither pan nor box zoom starts, and the click the browser sends
 * after the drag is swallowed so it does not identify. Plain drags still pan. Returns a detach.
 */
export function attachBoxSelect(map: MapLibreMap, handlers: BoxSelectHandlers): () => void {
  const outer = map.getContainer();
  const inner = map.getCanvasContainer();
  let swallowClickUntil = 0;
  let endDrag: (() => void) | null = null;

  const pointOf = (e: MouseEvent): ScreenPoint => {
    const rect = inner.getBoundingClientRect();
    return { x: e.clientX - rect.left - inner.clientLeft, y: e.clientY - rect.top - inner.clientTop };
  };

  const onMouseDown = (down: MouseEvent) => {
    if (!down.shiftKey || down.button !== 0 || !(down.target instanceof Node) || !inner.contains(down.target)) return;
    down.stopPropagation();
    down.preventDefault();
    const start = pointOf(down);
    let box: HTMLDivElement | null = null;

    const onMove = (move: MouseEvent) => {
      const p = pointOf(move);
      if (!box && Math.hypot(p.x - start.x, p.y - start.y) < DRAG_THRESHOLD_PX) return;
      if (!box) {
        box = document.createElement('div');
        box.className = 'map-select-box';
        box.dataset.testid = 'map-select-box';
        inner.appendChild(box);
      }
      box.style.left = `${Math.min(p.x, start.x)}px`;
      box.style.top = `${Math.min(p.y, start.y)}px`;
      box.style.width = `${Math.abs(p.x - start.x)}px`;
      box.style.height = `${Math.abs(p.y - start.y)}px`;
    };
    const finish = () => {
      window.removeEventListener('mousemove', onMove, true);
      window.removeEventListener('mouseup', onUp, true);
      box?.remove();
      endDrag = null;
    };
    const onUp = (up: MouseEvent) => {
      const dragged = box !== null;
      finish();
      swallowClickUntil = performance.now() + SWALLOW_CLICK_MS;
      if (dragged) handlers.onBox(start, pointOf(up), up.ctrlKey || up.metaKey);
      else handlers.onShiftClick(start);
    };
    window.addEventListener('mousemove', onMove, true);
    window.addEventListener('mouseup', onUp, true);
    endDrag = finish;
  };

  const onClick = (click: MouseEvent) => {
    if (performance.now() > swallowClickUntil) return;
    swallowClickUntil = 0;
    click.stopPropagation();
  };

  outer.addEventListener('mousedown', onMouseDown, true);
  outer.addEventListener('click', onClick, true);
  return () => {
    endDrag?.();
    outer.removeEventListener('mousedown', onMouseDown, true);
    outer.removeEventListener('click', onClick, true);
  };
}

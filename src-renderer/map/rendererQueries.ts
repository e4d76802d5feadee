import type { Map as MapLibreMap } from 'maplibre-gl';
import type { BBox } from '../../src-shared/domain/layer.js';

/** What `map.current_view` returns to the model (main validates the same shape). */
export interface CurrentView {
  center: [number, number];
  zoom: number;
  bounds: BBox;
  bearing: number;
  pitch: number;
}

export interface Screenshot {
  dataUrl: string;
  width: number;
  height: number;
}

/** The slice of MapLibre's `Map` the view needs, so it can be tested against a fake. */
export interface ViewSource {
  getCenter(): { lng: number; lat: number };
  getZoom(): number;
  getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number };
  getBearing(): number;
  getPitch(): number;
}

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Longitude into [-180, 180); the map's centre drifts past ±180 as the person pans around. */
const wrapLon = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

/**
 * A view's bounds as a bbox a query can use: degrees within ±180/±90. MapLibre reports
 * unwrapped longitudes (a view over the Pacific may span 170…190); such a view is clamped to
 * the side its centre is on rather than returned as west > east, which filters do not take.
 */
export function normaliseBounds(west: number, south: number, east: number, north: number, centerLon: number): BBox {
  const s = clamp(south, -90, 90);
  const n = clamp(north, -90, 90);
  if (east - west >= 360) return [-180, s, 180, n];
  const shift = wrapLon(centerLon) - centerLon;
  return [clamp(west + shift, -180, 180), s, clamp(east + shift, -180, 180), n];
}

/** The view as the person sees it, rounded to what matters (~0.1 m, 1/100 zoom level). */
export function describeView(map: ViewSource): CurrentView {
  const c = map.getCenter();
  const b = map.getBounds();
  const bounds = normaliseBounds(b.getWest(), b.getSouth(), b.getEast(), b.getNorth(), c.lng);
  return {
    center: [round(wrapLon(c.lng), 6), round(c.lat, 6)],
    zoom: round(map.getZoom(), 2),
    bounds: bounds.map((v) => round(v, 6)) as BBox,
    bearing: round(map.getBearing(), 1),
    pitch: round(map.getPitch(), 1),
  };
}

/**
 * How much to shrink a screenshot whose data URL is `length` characters to fit in `maxChars`.
 * PNG size grows about with the pixel count, so the side scales with the square root; the
 * margin makes the second try fit in most cases. 1 when it already fits.
 */
export function screenshotScale(length: number, maxChars: number): number {
  if (length <= maxChars) return 1;
  return Math.sqrt(maxChars / length) * 0.9;
}

/** Resolves on the map's next `idle` (tiles loaded, no animation), or after `capMs` regardless. */
export function waitForIdle(map: Pick<MapLibreMap, 'once' | 'off' | 'triggerRepaint'>, capMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      map.off('idle', done);
      resolve();
    };
    const timer = setTimeout(done, capMs);
    map.once('idle', done);
    // A repaint with nothing left to load ends in `idle` at once, so a settled map answers quickly.
    map.triggerRepaint();
  });
}

/**
 * Runs `fit` (which starts a move, or answers false when there is nothing to fit) and resolves
 * once the move has ended (`moveend`) and the map is `idle`, all within `capMs`. The listener
 * is on before the move starts: a jump (no animation) ends inside `fitBounds` itself. An
 * earlier flight interrupted by this one also ends in a `moveend`, but `idle` waits for the new one.
 */
export async function fitAndSettle(
  map: Pick<MapLibreMap, 'once' | 'off' | 'triggerRepaint'>,
  fit: () => boolean,
  capMs: number,
): Promise<void> {
  const deadline = Date.now() + capMs;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      map.off('moveend', done);
      resolve();
    };
    const timer = setTimeout(done, capMs);
    map.once('moveend', done);
    if (!fit()) done();
  });
  await waitForIdle(map, Math.max(0, deadline - Date.now()));
}

function scaledCopy(source: HTMLCanvasElement, scale: number): Screenshot {
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas to scale the screenshot down');
  context.drawImage(source, 0, 0, width, height);
  return { dataUrl: canvas.toDataURL('image/png'), width, height };
}

/**
 * A PNG of the map canvas once it has settled. The map keeps its drawing buffer
 * (`preserveDrawingBuffer`), so the canvas can be read outside a frame. A PNG larger than
 * `maxChars` as a data URL (the web host's WebSocket takes messages up to 1 MiB) is scaled down.
 */
export async function captureScreenshot(map: MapLibreMap, options: { idleCapMs: number; maxChars: number }): Promise<Screenshot> {
  await waitForIdle(map, options.idleCapMs);
  const canvas = map.getCanvas();
  let shot: Screenshot = { dataUrl: canvas.toDataURL('image/png'), width: canvas.width, height: canvas.height };
  let scale = 1;
  for (let attempt = 0; attempt < 4 && shot.dataUrl.length > options.maxChars; attempt += 1) {
    scale *= screenshotScale(shot.dataUrl.length, options.maxChars);
    shot = scaledCopy(canvas, scale);
  }
  if (shot.dataUrl.length > options.maxChars) throw new Error('The screenshot is too large to send, even scaled down');
  return shot;
}

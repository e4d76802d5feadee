import type { Map as MapLibreMap } from 'maplibre-gl';
import type { PrintedPage, PrintSpec } from '../../src-shared/domain/printLayout.js';
import { planLayout } from '../../src-shared/print/layoutPlan.js';
import { visibleLegends } from '../../src-shared/style/legend.js';
import { waitForIdle } from '../map/rendererQueries.js';
import { appStore } from '../store/appStore.js';
import { attributionLine, coverCrop, localIsoDate } from './printText.js';
import { renderLayout, type PageContent } from './renderLayout.js';
import { metresPerPixel } from './scaleBar.js';

/** Print resolution of the page. */
const PRINT_DPI = 150;
/** Below this a page is not worth sending: the transport cap is hit by something else. */
const MIN_DPI = 60;
/** The map is never drawn sharper than this many canvas pixels per CSS pixel (GPU memory). */
const MAX_PIXEL_RATIO = 4;

/**
 * Draws the map sharper for the page: the pixel ratio that gives about one canvas pixel per
 * page pixel in the map frame. Only the resolution changes, not the view, so labels and line
 * widths keep their proportions. Returns a function that puts the old ratio back.
 */
async function sharpen(map: MapLibreMap, frame: { width: number; height: number }, idleCapMs: number): Promise<() => void> {
  const before = map.getPixelRatio();
  const css = map.getContainer();
  const crop = coverCrop(css.clientWidth || 1, css.clientHeight || 1, frame.width / frame.height);
  const wanted = Math.min(MAX_PIXEL_RATIO, frame.width / crop.width);
  if (wanted <= before * 1.05) {
    await waitForIdle(map, idleCapMs);
    return () => undefined;
  }
  map.setPixelRatio(wanted);
  await waitForIdle(map, idleCapMs);
  return () => map.setPixelRatio(before);
}

/** The map's sources' attributions: Natural Earth for the basemap, the online basemap's, a web source's. */
function mapAttribution(map: MapLibreMap): string {
  const sources = Object.values(map.getStyle()?.sources ?? {});
  return attributionLine(sources.map((s) => ('attribution' in s ? s.attribution : undefined)));
}

function drawPage(spec: PrintSpec, dpi: number, content: PageContent): HTMLCanvasElement {
  const plan = planLayout(spec.pageSize, spec.orientation, dpi);
  const canvas = document.createElement('canvas');
  canvas.width = plan.page.widthPx;
  canvas.height = plan.page.heightPx;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas to compose the page');
  renderLayout(ctx, plan, content);
  return canvas;
}

/**
 * A print page of the map as shown (issue #15): the map redrawn sharp and settled, the legend
 * of the visible layers from the store (the model MapLegend draws), attribution, date; drawn
 * at 150 DPI, or lower when the PNG would not fit `maxChars` as a data URL (the web host's
 * WebSocket takes 1 MiB), redrawn rather than scaled so text stays crisp.
 */
export async function composePrint(
  map: MapLibreMap,
  spec: PrintSpec,
  options: { idleCapMs: number; maxChars: number },
): Promise<PrintedPage> {
  const frame = planLayout(spec.pageSize, spec.orientation, PRINT_DPI).map;
  const restore = await sharpen(map, frame, options.idleCapMs);
  try {
    // The drawing buffer is kept (preserveDrawingBuffer), so the canvas can be read after the frame.
    const canvas = map.getCanvas();
    const centre = map.getCenter();
    const ratio = canvas.width / (map.getContainer().clientWidth || canvas.width);
    const content: PageContent = {
      title: spec.title.trim(),
      map: {
        image: canvas,
        width: canvas.width,
        height: canvas.height,
        metresPerPixel: metresPerPixel(centre.lat, map.getZoom()) / ratio,
        bearing: map.getBearing(),
      },
      legends: visibleLegends(appStore.getState().layers),
      attribution: mapAttribution(map),
      date: localIsoDate(new Date()),
    };
    let dpi = PRINT_DPI;
    for (let attempt = 0; attempt < 5; attempt++) {
      const dataUrl = drawPage(spec, dpi, content).toDataURL('image/png');
      if (dataUrl.length <= options.maxChars) {
        const plan = planLayout(spec.pageSize, spec.orientation, dpi);
        return { dataUrl, width: plan.page.widthPx, height: plan.page.heightPx, dpi };
      }
      // PNG size grows about with the pixel count: the DPI with the square root, and a margin.
      dpi = Math.floor(dpi * Math.sqrt(options.maxChars / dataUrl.length) * 0.9);
      if (dpi < MIN_DPI) break;
    }
    throw new Error('The page is too large to send, even at a low resolution');
  } finally {
    restore();
  }
}

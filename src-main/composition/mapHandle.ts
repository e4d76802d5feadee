import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { BBox } from '../../src-shared/domain/layer.js';
import { MapSelection } from '../../src-shared/domain/mapSelection.js';
import { PrintedPage } from '../../src-shared/domain/printLayout.js';
import type { MapHandle, ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { buildLayoutPdf } from '../print/layoutPdf.js';
import type { RendererQueries } from '../tool-host/rendererQueries.js';

/** Composing a page waits for the map to settle (up to 3 s) and redraws it sharper: more than a plain question's 5 s. */
const PRINT_TIMEOUT_MS = 25_000;
/**
 * The renderer answers a fit once the move has ended and the map is idle, capped at 3 s
 * (useRendererQueries.ts); with no window to answer, main goes on without a view after this.
 */
const FIT_TIMEOUT_MS = 4000;

const View = z.object({
  center: z.tuple([z.number(), z.number()]),
  zoom: z.number(),
  bounds: BBox,
  bearing: z.number(),
  pitch: z.number(),
});
const Shot = z.object({ dataUrl: z.string().startsWith('data:image/png;base64,'), width: z.number().int(), height: z.number().int() });

/**
 * The `map` handle: view changes and questions go to the renderer, and its answers are
 * validated on return. `fitTimeoutMs` is for tests.
 */
export function createMapHandle(queries: RendererQueries, project: ProjectHandle, options: { fitTimeoutMs?: number } = {}): MapHandle {
  return {
    async fitBounds(bbox, signal) {
      try {
        const answer = View.safeParse(await queries.ask('fit_bounds', signal, { bbox, timeoutMs: options.fitTimeoutMs ?? FIT_TIMEOUT_MS }));
        return answer.success ? answer.data : null;
      } catch (error) {
        // Moving the view is best effort: no window (or a map not ready yet) is not a failure.
        if (error instanceof ToolFailure && error.code === 'cancelled') throw error;
        return null;
      }
    },
    async currentView(signal) {
      const answer = View.safeParse(await queries.ask('current_view', signal));
      if (!answer.success) throw new ToolFailure('handler_error', 'The map sent a malformed view', true);
      return answer.data;
    },
    async screenshot(signal) {
      const answer = Shot.safeParse(await queries.ask('screenshot', signal));
      if (!answer.success) throw new ToolFailure('handler_error', 'The map sent a malformed screenshot', true);
      const path = project.outputPath('map-screenshot', 'png');
      await writeFile(path, Buffer.from(answer.data.dataUrl.slice('data:image/png;base64,'.length), 'base64'));
      return { path, width: answer.data.width, height: answer.data.height };
    },
    async exportLayout({ format, ...spec }, signal) {
      const answer = PrintedPage.safeParse(await queries.ask('print_layout', signal, { print: spec, timeoutMs: PRINT_TIMEOUT_MS }));
      if (!answer.success) throw new ToolFailure('handler_error', 'The map sent a malformed print page', true);
      const { dataUrl, width, height, dpi } = answer.data;
      const png = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
      const path = project.outputPath(spec.title.trim() || 'map-layout', format);
      await writeFile(path, format === 'pdf' ? await buildLayoutPdf({ spec, png }) : png);
      return { path, width, height, pages: 1, dpi };
    },
    async selection(signal) {
      const answer = MapSelection.safeParse(await queries.ask('selection', signal));
      if (!answer.success) throw new ToolFailure('handler_error', 'The map sent a malformed selection', true);
      return answer.data;
    },
  };
}

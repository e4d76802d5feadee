import { z } from 'zod';
import { MapExportResult, MAX_TITLE_CHARS, Orientation, PageSize } from '../../src-shared/domain/printLayout.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

/**
 * A print layout of the map as shown (issue #15). The renderer composes the page; main writes
 * the PNG or a PDF around it into the outputs folder, hence `write`. The person's Export
 * dialog runs it too (`userVisible`).
 */
export const mapExport = defineTool({
  id: 'map.export',
  version: '1.0.0',
  group: 'map',
  icon: 'map',
  title: 'Export map layout',
  description:
    'Exports the map as shown as a print layout (title, legend, scale bar, north arrow, attribution, date) to a PDF or PNG ' +
    'in the project outputs folder. Returns the file path, its size in pixels and the DPI.',
  input: z.object({
    title: z.string().max(MAX_TITLE_CHARS).optional().describe('Title printed at the top; none when omitted.'),
    format: z.enum(['pdf', 'png']).describe('File format.'),
    page_size: PageSize.default('A4').describe('Paper size.'),
    orientation: Orientation.default('landscape').describe('Page orientation.'),
  }),
  output: MapExportResult,
  safety: 'write',
  exec: 'renderer',
  handles: ['map'],
  userVisible: true,
  timeoutMs: 40_000,
  concurrency: 1,
  summary: (a) => `Export the map as ${a.format.toUpperCase()} (${a.page_size} ${a.orientation})${a.title ? `: “${a.title}”` : ''}`,
  notice: (data) => {
    const parsed = MapExportResult.safeParse(data);
    return parsed.success ? `Exported the map layout to ${parsed.data.path}` : null;
  },
  async execute(args, { handles, signal }): Promise<MapExportResult> {
    const spec = { title: args.title ?? '', pageSize: args.page_size, orientation: args.orientation, format: args.format };
    const out = await handles.map.exportLayout(spec, signal);
    return {
      path: out.path,
      format: args.format,
      page_size: args.page_size,
      orientation: args.orientation,
      width: out.width,
      height: out.height,
      dpi: out.dpi,
      pages: out.pages,
    };
  },
});

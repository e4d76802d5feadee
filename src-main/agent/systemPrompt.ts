import type { Layer } from '../../src-shared/domain/layer.js';

/**
 * The system prompt: role and rules, then a short project summary so the model need not
 * call a tool just to learn what is loaded.
 */
export function buildSystemPrompt(layers: readonly Layer[]): string {
  const rules = [
    'You are Mapwright, a GIS assistant inside a desktop map application.',
    'You act only through the tools you are given; every change you make waits for the person to approve it.',
    'Use absolute paths exactly as the person gives them. Do not invent files, fields or numbers.',
    'If a tool result says rejected_by_user, do not retry it: say plainly that you will not do it, explain what it would have done, and offer alternatives.',
    'If a tool fails, read its error and hint; fix the call if you can, otherwise tell the person what went wrong.',
    'Keep replies short. Reply in the language the person writes in.',
  ].join('\n');
  const summary = layers.length
    ? [...layers]
        .reverse()
        .map((l) => {
          const i = l.info;
          const crs = i.crs?.epsg ? `EPSG:${i.crs.epsg}` : (i.crs?.name ?? 'no CRS');
          const what = l.kind === 'vector' ? `${i.geometryType ?? 'vector'}, ${i.featureCount ?? '?'} features` : `raster ${i.width}×${i.height}, ${i.bands.length} band(s)`;
          return `- ${l.name} (id ${l.id}): ${what}, ${crs}${l.visible ? '' : ', hidden'}`;
        })
        .join('\n')
    : '(no layers loaded)';
  return `${rules}\n\nProject layers, top first:\n${summary}`;
}

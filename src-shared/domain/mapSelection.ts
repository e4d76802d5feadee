import { z } from 'zod';

/**
 * What the person has selected on the map or in the attribute table, as the renderer reports
 * it to main for `map.selection`. Only ids travel: the model reads attributes with its own
 * tools, so a large selection never floods the conversation.
 */

/** Feature ids listed at most; `count` and `capped` say how many there are in all. */
export const MAX_REPORTED_FIDS = 1000;

export const MapSelection = z.union([
  z.object({
    layerId: z.string().min(1),
    count: z.number().int().min(1),
    /** The first MAX_REPORTED_FIDS selected feature ids, ascending. */
    fids: z.array(z.number().int()).max(MAX_REPORTED_FIDS),
    /** True when `fids` lists fewer than `count`. */
    capped: z.boolean(),
  }),
  z.object({ count: z.literal(0) }),
]);
export type MapSelection = z.infer<typeof MapSelection>;

/** The renderer's report of a selection: the first ids in ascending order, capped. */
export function reportSelection(layerId: string | null, fids: Iterable<number>): MapSelection {
  const all = [...fids];
  if (!layerId || all.length === 0) return { count: 0 };
  all.sort((a, b) => a - b);
  return { layerId, count: all.length, fids: all.slice(0, MAX_REPORTED_FIDS), capped: all.length > MAX_REPORTED_FIDS };
}

import { z } from 'zod';

/** The map view saved with a project (issue #15): where the person left it. */
export const MapView = z
  .object({
    center: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]),
    zoom: z.number().min(0).max(24),
    bearing: z.number().min(-360).max(360),
    pitch: z.number().min(0).max(85),
  })
  .strict();
export type MapView = z.infer<typeof MapView>;

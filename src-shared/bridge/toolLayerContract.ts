import type { z } from 'zod';

/** Bridge methods and events of this domain; their names are listed in names.ts. */
export const toolLayerMethods = {} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;
export const toolLayerEvents = {} satisfies Record<string, z.ZodType>;

import type { z } from 'zod';

/** Bridge methods and events of this domain; their names are listed in names.ts. */
export const conversationMethods = {} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;
export const conversationEvents = {} satisfies Record<string, z.ZodType>;

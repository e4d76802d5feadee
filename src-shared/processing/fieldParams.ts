import { z } from 'zod';

/** Existing field names of a layer; the worker matches them case-insensitively and lists the real ones on a miss. */
export const fieldList = z.array(z.string().min(1)).min(1).max(500).describe('Field names');

/** A field the algorithm creates: plain letters, digits and _, so it needs no quoting anywhere. */
export const newFieldName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a field name: letters, digits and _, not starting with a digit')
  .describe('Name of the new field');

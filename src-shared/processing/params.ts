import { z } from 'zod';

/** A parameter naming a project layer. */
export const layerParam = z.string().min(1).describe('Project layer id or exact name');


import type { z } from 'zod';
import type { AlgorithmSpec } from '../../../src-shared/processing/algorithmSpec.js';
import { PushdownError } from './types.js';

/**
 * An algorithm's params checked by the catalogue's own schema (defaults filled in), less its
 * layer params, which the engine takes as tables. The same zod object the tool's prepare uses,
 * so both engines accept exactly the same params.
 */
export function parseParams<S extends z.ZodObject>(spec: AlgorithmSpec<S>, params: Record<string, unknown>): z.output<S> {
  const mask = Object.fromEntries(spec.layerParams.map((k) => [k, true]));
  const parsed = (spec.params.omit(mask as never) as z.ZodObject).safeParse(params);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `params.${i.path.join('.')}: ${i.message}`).join('; ');
    throw new PushdownError('invalid_params', `Invalid parameters for ${spec.id}: ${problems}`);
  }
  return parsed.data as z.output<S>;
}

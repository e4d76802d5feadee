import { z } from 'zod';
import { ALGORITHMS, findAlgorithm } from '../../src-shared/processing/catalogue.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

export const describeAlgorithm = defineTool({
  id: 'processing.describe',
  version: '1.0.0',
  group: 'processing',
  icon: 'cog',
  title: 'Describe processing algorithm',
  description:
    'Describes one processing algorithm. Returns its description, its parameters as JSON Schema (which ones ' +
    'name layers and of which kind, which are distances in the layer CRS units) and its output kind — what ' +
    'processing_run needs in `params`.',
  input: z.object({
    algorithm: z.enum(ALGORITHMS.map((a) => a.id) as [string, ...string[]]).describe('Algorithm id from processing_list'),
  }),
  safety: 'read',
  exec: 'main',
  handles: [],
  summary: (a) => `Describe ${a.algorithm}`,
  async execute(args) {
    const spec = findAlgorithm(args.algorithm)!;
    const schema = z.toJSONSchema(spec.params, { io: 'input' }) as Record<string, unknown>;
    delete schema.$schema;
    return {
      id: spec.id,
      title: spec.title,
      description: spec.description,
      params: schema,
      layer_params: spec.layerParams,
      // Which kind of project layer each layer param takes (a join's table side also takes plain tables).
      layer_kinds: Object.fromEntries(
        spec.layerParams.map((key) => [key, spec.layerKinds?.[key] ?? (spec.output === 'vector' ? 'vector' : 'any')]),
      ),
      distance_params: spec.distanceParams,
      output: spec.output,
    };
  },
});

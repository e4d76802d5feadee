import { z } from 'zod';
import { ALGORITHMS } from '../../src-shared/processing/catalogue.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

export const listAlgorithms = defineTool({
  id: 'processing.list',
  version: '1.0.0',
  group: 'processing',
  icon: 'cog',
  title: 'List processing algorithms',
  description:
    'Lists the processing algorithms processing_run can run. Returns for each its id, title, what it does and ' +
    'whether it outputs a vector or raster layer. Use processing_describe for an algorithm’s parameters.',
  input: z.object({}),
  safety: 'read',
  exec: 'main',
  handles: [],
  summary: () => 'List processing algorithms',
  async execute() {
    return { algorithms: ALGORITHMS.map((a) => ({ id: a.id, title: a.title, description: a.description, output: a.output })) };
  },
});

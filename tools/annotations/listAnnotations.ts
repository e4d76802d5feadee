import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { annotationFacts } from './annotationFacts.js';

export const listAnnotations = defineTool({
  id: 'annotations.list',
  version: '1.0.0',
  group: 'annotations',
  icon: 'map',
  title: 'List annotations',
  description: 'Returns the annotations over the map (notes, arrows, highlights), bottom first, with ids and geometries.',
  input: z.object({}),
  safety: 'read',
  exec: 'main',
  handles: ['project'],
  summary: () => 'List annotations',
  async execute(_args, { handles }) {
    return { annotations: handles.project.listAnnotations().map(annotationFacts) };
  },
});

import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

export const mapScreenshot = defineTool({
  id: 'map.screenshot',
  version: '1.0.0',
  group: 'map',
  icon: 'map',
  title: 'Map screenshot',
  description:
    'Takes a PNG screenshot of the map as the person sees it and saves it in the project outputs folder. ' +
    'Returns the PNG path and its size in pixels.',
  input: z.object({}),
  safety: 'read',
  exec: 'renderer',
  handles: ['map'],
  timeoutMs: 15_000,
  summary: () => 'Take a screenshot of the map',
  async execute(_args, { handles, signal }) {
    return handles.map.screenshot(signal);
  },
});

import { z } from 'zod';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

export const currentView = defineTool({
  id: 'map.current_view',
  version: '1.0.0',
  group: 'map',
  icon: 'map',
  title: 'Current map view',
  description:
    'What the person is looking at. Returns centre [lon, lat], zoom, bounds [west, south, east, north] in ' +
    'degrees (a bbox for queries), bearing, pitch.',
  input: z.object({}),
  safety: 'read',
  exec: 'renderer',
  handles: ['map'],
  timeoutMs: 10_000,
  summary: () => 'Read the current map view',
  async execute(_args, { handles, signal }) {
    return handles.map.currentView(signal);
  },
});

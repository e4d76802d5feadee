import { z } from 'zod';
import type { HandleName } from '../handles.js';
import { defineTool, type ToolDefinition } from '../toolSdk.js';

type Filled = 'version' | 'group' | 'icon' | 'exec' | 'handles';

/**
 * For tests: a tool with the fields no test is about filled in (version '1', group 'test', icon
 * 'cog', run in main, no handles); the test names its id, presentation, input, safety and handlers.
 */
export function testTool<S extends z.ZodType, H extends HandleName = never>(
  def: Omit<ToolDefinition<S, H>, Filled> & Partial<Pick<ToolDefinition<S, H>, Filled>>,
): ToolDefinition<S, H> {
  return defineTool<S, H>({ version: '1', group: 'test', icon: 'cog', exec: 'main', handles: [], ...def });
}

/** For tests: `test.producer`, a write tool that returns `items` as its `load_layers`, for the host to load. */
export function producerTool(items: readonly unknown[]): ToolDefinition {
  return testTool({
    id: 'test.producer',
    title: 'Producer',
    description: 'Writes layers and returns them in load_layers.',
    input: z.object({}),
    safety: 'write',
    summary: () => 'produce',
    execute: async () => ({ load_layers: items }),
  });
}

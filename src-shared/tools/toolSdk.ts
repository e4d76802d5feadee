import type { z } from 'zod';
import type { HandleName, Handles } from './handles.js';

export type Safety = 'read' | 'write' | 'destructive';
export type ExecChannel = 'main' | 'worker' | 'renderer';
export type Caller = 'user' | 'model';

export interface ToolContext<H extends HandleName> {
  handles: Pick<Handles, H>;
  caller: Caller;
  signal: AbortSignal;
}

/**
 * A tool is one declaration (DESIGN §3): the contract the model sees, the permission the
 * policy reads, a summary for dialogs and cards, and the handler. Handlers import only
 * `src-shared`; everything they touch comes through the declared handles.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType, H extends HandleName = HandleName> {
  /** `namespace.name`; the model sees it as `namespace_name`. */
  id: `${string}.${string}`;
  version: string;
  title: string;
  /** Written for the model: what it does, what it returns, which tool uses its output. */
  description: string;
  input: S;
  safety: Safety;
  exec: ExecChannel;
  handles: readonly H[];
  /** One line describing a call, for the approval dialog and the tool card. */
  summary(args: z.output<S>): string;
  execute(args: z.output<S>, ctx: ToolContext<H>): Promise<unknown>;
}

/** Keeps the schema's type flowing into `summary` and `execute` at the declaration site. */
export function defineTool<S extends z.ZodType, H extends HandleName>(def: ToolDefinition<S, H>): ToolDefinition<S, H> {
  return def;
}

export function wireName(id: string): string {
  return id.replace(/\./g, '_');
}

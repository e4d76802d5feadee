import type { z } from 'zod';
import type { ChangeSample } from '../domain/chat.js';
import type { LayerInfo } from '../domain/layer.js';
import type { HandleName, Handles } from './handles.js';

export type Safety = 'read' | 'write' | 'destructive';
export type ExecChannel = 'main' | 'worker' | 'renderer';
/**
 * Who made a call: the person in the GUI, the app's own model, or an outside MCP client
 * (Claude Desktop, Cursor…) through Mapwright's MCP server, which the policy treats as the model.
 */
export type Caller = 'user' | 'model' | 'client';
export type CallerPolicy = 'user_and_model' | 'user_only';

/**
 * A layer the host loads once the call succeeds (`path` may carry `|layername=NAME`). `name`
 * is a wish (the project makes it unique). `info`, when the tool already knows it (an
 * algorithm describes what it wrote), spares the host a second look at the file; it is for
 * the host only and is left out of what the model reads.
 */
export interface LoadLayerRequest {
  path: string;
  name?: string;
  info?: LayerInfo;
}

/** A payload as the model reads it: the `load_layers` items without their host-only `info`. */
export function payloadForModel(data: unknown): unknown {
  const list = (data as { load_layers?: unknown } | null)?.load_layers;
  if (!Array.isArray(list) || !list.some(hasInfo)) return data;
  return { ...(data as object), load_layers: list.map((item: unknown) => (hasInfo(item) ? withoutInfo(item) : item)) };
}

function hasInfo(item: unknown): item is Record<string, unknown> {
  return typeof item === 'object' && item !== null && 'info' in item;
}

function withoutInfo(item: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...item };
  delete rest.info;
  return rest;
}

export interface ToolContext<H extends HandleName> {
  handles: Pick<Handles, H>;
  caller: Caller;
  /** Aborted by Stop or the time-out; long work must check it. */
  signal: AbortSignal;
  /** Shown as a progress bar on the tool card and in the status bar. */
  progress(fraction: number, message: string): void;
  /**
   * The undo snapshot taken before this approved change (null for a read): an edit journals
   * its data changes under this id so undo can revert them (issue #14).
   */
  changeId?: number | null;
}

/** What `prepare` may change: the arguments that will run and what the dialog previews. */
export interface Prepared<A> {
  args: A;
  /** A few facts about the effect for the approval dialog: which layer, how many features, CRS, output path. */
  preview?: Record<string, string | number | boolean | null>;
  /** Rows before/after, for an edit's dialog. */
  sample?: ChangeSample;
  /**
   * This call is riskier than the tool's declared safety (deleting many features): it asks as
   * `destructive` — always, never remembered. A call can only be raised, never lowered.
   */
  escalate?: 'destructive';
}

/**
 * A tool is one declaration with five faces (DESIGN §3): the contract the model sees, the
 * validation (`input` + `prepare`), the execution, the presentation (title, group, icon,
 * summary) and the permission the policy reads. Handlers import only `src-shared`; what they
 * touch comes through the handles they declare.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType, H extends HandleName = HandleName> {
  // contract
  /** `namespace.name`; the model sees it as `namespace_name`. */
  id: `${string}.${string}`;
  version: string;
  /** Written for the model: what it does, what it returns, which tool uses its output. */
  description: string;
  input: S;
  output?: z.ZodType;
  /**
   * Parameter → rules the dispatcher checks against the project before `prepare` and any
   * dialog (`layer_exists`, `vector`, `field_exists:layer`, `field_numeric`, `band_exists:layer`…,
   * see paramRules.ts; plugins write the same in plugin.yaml). A failure is `invalid_params`
   * with the nearest valid names, so `prepare` and `execute` may take these facts as given.
   */
  rules?: Readonly<Record<string, readonly string[]>>;
  // presentation
  title: string;
  group: string;
  /** An icon name from the renderer's set (e.g. 'layers', 'search', 'cog', 'map'). */
  icon: string;
  /** One line describing a call, for the approval dialog and the tool card. */
  summary(args: z.output<S>): string;
  /**
   * A line for the person in the conversation after a successful call that changed what they
   * see (`Loaded layer …`), from the call's payload; null for none. Not shown to the model.
   */
  notice?(data: unknown): string | null;
  // permission
  safety: Safety;
  /**
   * How costly a failure or a mistake is (plugins declare it; built-in tools leave it out):
   * `critical` always asks and is never remembered, even in Auto.
   */
  riskLevel?: 'low' | 'medium' | 'high' | 'critical';
  network?: boolean;
  /**
   * The network origins the tool itself declares (a plugin's http/grpc endpoint), never taken
   * from arguments: the person may approve them once for this tool version (a remembered grant).
   */
  origins?: readonly string[];
  /**
   * An approved call records the network origins its arguments name for this project (a map
   * source): the dialog says the approval is kept, not "never remembered".
   */
  remembersOrigins?: boolean;
  caller?: CallerPolicy;
  /**
   * true: the GUI may run this tool as the person (`entries/trigger`). The renderer is trusted
   * less than main, so every other tool is refused from there.
   */
  userVisible?: boolean;
  timeoutMs?: number;
  /** At most this many calls of this tool at once. */
  concurrency?: number;
  oncePerSession?: boolean;
  /** Set to say what replaces it; deprecated tools are not offered to the model. */
  deprecated?: string;
  /**
   * false: what the call changes lies outside the project (the person's memory, in the app's
   * own database), which Undo does not restore: no undo snapshot is taken, so Undo never
   * offers a step that would do nothing.
   */
  undoable?: false;
  // execution
  exec: ExecChannel;
  handles: readonly H[];
  /**
   * Normalises arguments and rejects what can be known before running (with a ready-made
   * fix in the error's hint). What it returns is exactly what the dialog shows and what runs.
   */
  prepare?(args: z.output<S>, ctx: Omit<ToolContext<H>, 'progress'>): Promise<Prepared<z.output<S>>>;
  execute(args: z.output<S>, ctx: ToolContext<H>): Promise<unknown>;
}

/**
 * Keeps the schema's type flowing into `summary` and `execute` at the declaration site. The
 * result is a plain `ToolDefinition` too (lists of tools are `readonly ToolDefinition[]`
 * without casts): the handlers are methods, whose parameters TypeScript checks bivariantly,
 * and that is sound here because the dispatcher only ever calls them with `def.input`'s own
 * output and the handles `def.handles` names.
 */
export function defineTool<S extends z.ZodType, H extends HandleName>(def: ToolDefinition<S, H>): ToolDefinition<S, H> {
  return def;
}

export function wireName(id: string): string {
  return id.replace(/\./g, '_');
}

/**
 * Commands are the GUI's own actions (undo, modes): user only, never offered to the model.
 * They pass the dispatcher like tools (validated, audited as the person's action); `run`
 * throws a ToolFailure to end with a specific error (`not_allowed`: nothing to undo).
 */
export interface CommandDefinition<S extends z.ZodType = z.ZodType> {
  id: `${string}.${string}`;
  title: string;
  input: S;
  run(args: z.output<S>): Promise<unknown>;
}

/** Keeps the schema's type flowing into `run`, as `defineTool` does for tools. */
export function defineCommand<S extends z.ZodType>(def: CommandDefinition<S>): CommandDefinition<S> {
  return def;
}

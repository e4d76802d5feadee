import type { z } from 'zod';
import type { Handles } from '../../src-shared/tools/handles.js';
import { ToolFailure, toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { Caller } from '../../src-shared/tools/toolSdk.js';
import type { ApprovalBroker } from './approvalBroker.js';
import type { RegisteredTool, ToolRegistry } from './toolRegistry.js';

export interface DispatchRequest {
  /** Tool id or wire name. */
  name: string;
  /** JSON text from the model, or an object from the GUI. */
  rawArgs: unknown;
  caller: Caller;
  callId: string;
  signal: AbortSignal;
  /** Told when the call is known and validated, before any approval. */
  onValidated?(tool: RegisteredTool, args: unknown, summary: string): void;
  onStatus?(status: 'awaiting_approval' | 'running'): void;
}

export interface DispatchOutcome {
  result: ToolResult;
  tool: RegisteredTool | null;
  args: unknown;
  durationMs: number | null;
}

/**
 * The one gate every call passes, whoever makes it: look up → validate → policy → approval →
 * execute. It never throws: every failure is a structured result the model (or the panel)
 * can read.
 */
export class ToolDispatcher {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly handles: Handles,
    private readonly approvals: ApprovalBroker,
  ) {}

  async dispatch(req: DispatchRequest): Promise<DispatchOutcome> {
    const tool = this.registry.find(req.name);
    if (!tool) {
      const near = this.registry.nearest(req.name);
      return fail(null, req.rawArgs, toolError('unknown_tool', `There is no tool '${req.name}'.`, false, `Did you mean: ${near.join(', ')}?`));
    }
    const parsed = parseArgs(tool, req.rawArgs);
    if (!parsed.ok) return fail(tool, req.rawArgs, parsed.error);
    const args = parsed.args;
    const summary = safeSummary(tool, args);
    req.onValidated?.(tool, args, summary);

    const { def } = tool;
    const needsApproval = req.caller === 'model' && def.safety !== 'read' && !(def.safety === 'write' && this.approvals.isGranted(def.id));
    if (needsApproval) {
      req.onStatus?.('awaiting_approval');
      const decision = await this.approvals.request(
        {
          callId: req.callId,
          toolId: def.id,
          title: def.title,
          description: def.description,
          summary,
          safety: def.safety,
          args,
          rememberable: def.safety === 'write',
        },
        req.signal,
      );
      if (decision.decision !== 'approve') {
        const message =
          decision.by === 'user'
            ? `The person rejected this call (${def.id}). Do not retry it; explain what it would have done and offer alternatives.`
            : `This call was not approved: ${decision.reason ?? 'no answer'}.`;
        return fail(tool, args, toolError(decision.reason === 'stopped' ? 'cancelled' : 'rejected_by_user', message, false));
      }
    }
    if (req.signal.aborted) return fail(tool, args, toolError('cancelled', 'The run was stopped before this call ran.', false));

    req.onStatus?.('running');
    const started = performance.now();
    const ctx = { handles: pickHandles(this.handles, def.handles), caller: req.caller, signal: req.signal };
    try {
      const data = await def.execute(args, ctx as never);
      return { result: { ok: true, data }, tool, args, durationMs: Math.round(performance.now() - started) };
    } catch (err) {
      const result =
        err instanceof ToolFailure
          ? toolError(err.code, err.message, err.retryable, err.hint)
          : toolError('handler_error', `${def.id} failed: ${err instanceof Error ? err.message : String(err)}`, false);
      return { result, tool, args, durationMs: Math.round(performance.now() - started) };
    }
  }
}

function fail(tool: RegisteredTool | null, args: unknown, result: ToolResult): DispatchOutcome {
  return { result, tool, args, durationMs: null };
}

function parseArgs(tool: RegisteredTool, raw: unknown): { ok: true; args: unknown } | { ok: false; error: ToolResult } {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      return { ok: false, error: toolError('invalid_params', `The arguments for ${tool.wireName} are not valid JSON: ${raw.slice(0, 200)}`, true) };
    }
  }
  // Extra fields are dropped by zod's default object parsing: models add them, failing hurts more.
  const result = (tool.def.input as z.ZodType).safeParse(value ?? {});
  if (result.success) return { ok: true, args: result.data };
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
  return { ok: false, error: toolError('invalid_params', `Invalid arguments for ${tool.wireName}: ${problems}`, true) };
}

function safeSummary(tool: RegisteredTool, args: unknown): string {
  try {
    return tool.def.summary(args as never);
  } catch {
    return tool.def.title;
  }
}

/** A tool gets exactly the handles it declared; anything else is simply not there. */
function pickHandles(all: Handles, names: readonly (keyof Handles)[]): Partial<Handles> {
  const picked: Partial<Handles> = {};
  for (const n of names) (picked as Record<string, unknown>)[n] = all[n];
  return Object.freeze(picked);
}

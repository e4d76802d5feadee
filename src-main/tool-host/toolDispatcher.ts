import { z } from 'zod';
import type { ApprovalMode } from '../../src-shared/domain/toolLayer.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import { ToolFailure, toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { Caller, LoadLayerRequest, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import type { ApprovalBroker } from './approvalBroker.js';
import { decideApproval, type PolicyDecision } from './approvalPolicy.js';
import { assessCall, type CallCapabilities, type PrivatePathCheck } from './callCapabilities.js';
import { Semaphore } from './semaphore.js';
import type { RegisteredTool, ToolRegistry } from './toolRegistry.js';

export interface DispatchRequest {
  /** Tool id or wire name. */
  name: string;
  /** JSON text from the model, or an object from the GUI. */
  rawArgs: unknown;
  caller: Caller;
  /**
   * The person gave this input to main directly (a path picked in a native open dialog), not
   * through the renderer: a GUI call carrying it is their own action and is not asked again.
   */
  trustedInput?: boolean;
  callId: string;
  runId: string | null;
  conversationId: string | null;
  signal: AbortSignal;
  /** Told when the call is known and validated, before any approval. */
  onValidated?(tool: RegisteredTool, args: unknown, summary: string): void;
  onStatus?(status: 'awaiting_approval' | 'running'): void;
  onProgress?(fraction: number, message: string): void;
}

export interface DispatchOutcome {
  result: ToolResult;
  tool: RegisteredTool | null;
  args: unknown;
  durationMs: number | null;
  /** Names of layers the host loaded from the payload's `load_layers`. */
  loadedLayers: string[];
}

/** What the dispatcher needs from the rest of main, beyond the registry and the handles. */
export interface DispatcherHooks {
  policy(): { mode: ApprovalMode; askForReads: boolean };
  audit(entry: NewAuditEntry): void;
  /** Called before an approved change runs (undo). */
  snapshot(info: { runId: string | null; conversationId: string | null; toolId: string; summary: string }): void;
  /** Loads a produced layer; returns its name in the project. */
  loadProduced(request: LoadLayerRequest): Promise<string>;
  /** The app's own files, which no source parameter may name. */
  privatePaths: PrivatePathCheck;
  /** Opens the egress gate to these origins while an approved network call runs; returns the closer. */
  openEgress(origins: readonly string[]): () => void;
  /** Origins the egress gate refused since `sinceMs` (epoch ms), to tell the model why a read failed. */
  egressRefusedSince?(sinceMs: number): string[];
}

/**
 * The one gate every call passes, whoever makes it (model, layer panel, drag-and-drop): look
 * up → validate → prepare → policy → approval → snapshot → execute (declared handles only,
 * time-out, concurrency) → load produced layers → audit. It never throws: every failure is a
 * structured result the model or the panel can read.
 */
export class ToolDispatcher {
  private readonly usedOnce = new Set<string>();
  private readonly limits = new Map<string, Semaphore>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly handles: Handles,
    private readonly approvals: ApprovalBroker,
    private readonly hooks: DispatcherHooks,
  ) {}

  async dispatch(req: DispatchRequest): Promise<DispatchOutcome> {
    const tool = this.registry.find(req.name);
    if (!tool) {
      const near = this.registry.nearest(req.name);
      return this.finish(req, null, req.rawArgs, 'refused', 'system', toolError('unknown_tool', `There is no tool '${req.name}'.`, false, `Did you mean: ${near.join(', ')}?`));
    }
    const { def } = tool;
    const parsed = parseArgs(tool, req.rawArgs);
    if (!parsed.ok) return this.finish(req, tool, req.rawArgs, 'refused', 'system', parsed.error);
    if (def.oncePerSession && this.usedOnce.has(def.id)) {
      return this.finish(req, tool, parsed.args, 'refused', 'policy', toolError('not_allowed', `${def.id} runs once per session and has already run.`, false));
    }

    // Sources are judged before `prepare`, which may already open them.
    const early = assessCall(def, parsed.args, this.hooks.privatePaths);
    if (!early.ok) return this.finish(req, tool, parsed.args, 'refused', 'policy', early.error);
    const ctxBase = { handles: pickHandles(this.handles, def.handles), caller: req.caller, signal: req.signal };
    let args = parsed.args;
    let preview: Record<string, string | number | boolean | null> | undefined;
    if (def.prepare) {
      try {
        const prepared = await def.prepare(args as never, ctxBase as never);
        args = prepared.args;
        preview = prepared.preview;
      } catch (err) {
        return this.finish(req, tool, args, 'refused', 'system', failureOf(def, err));
      }
    }
    // …and again after it when it changed them, since what it returns is what runs.
    const assessed = args === parsed.args ? early : assessCall(def, args, this.hooks.privatePaths);
    if (!assessed.ok) return this.finish(req, tool, args, 'refused', 'policy', assessed.error);
    const caps: CallCapabilities = assessed.caps;
    const summary = safeSummary(tool, args);
    req.onValidated?.(tool, args, summary);

    const { mode, askForReads } = this.hooks.policy();
    const unverifiedGuiInput = req.caller === 'user' && caps.carriesPathOrSql && req.trustedInput !== true;
    const policy: PolicyDecision = decideApproval({
      def,
      caller: req.caller,
      mode,
      askForReads,
      granted: this.approvals.isGranted(def.id, tool.definitionHash),
      networkOrigins: caps.networkOrigins,
      unverifiedGuiInput,
    });
    if (policy.kind === 'refuse') return this.finish(req, tool, args, 'refused', 'policy', toolError('not_allowed', policy.message, false));
    let decision: NewAuditEntry['decision'] = policy.kind === 'run' ? policy.decision : 'approved';
    let decidedBy: NewAuditEntry['decidedBy'] = policy.kind === 'run' ? (policy.decision === 'user_action' ? 'user' : 'policy') : 'user';
    if (policy.kind === 'ask') {
      req.onStatus?.('awaiting_approval');
      const answer = await this.approvals.request(
        {
          callId: req.callId,
          toolId: def.id,
          wireName: tool.wireName,
          title: def.title,
          description: def.description,
          summary,
          safety: def.safety,
          args,
          rememberable: policy.rememberable,
          ...(preview ? { preview } : {}),
          ...(caps.networkOrigins.length ? { network: caps.networkOrigins } : {}),
          ...(unverifiedGuiInput ? { fromInterface: true } : {}),
        },
        tool.definitionHash,
        req.signal,
      );
      if (answer.decision !== 'approve') {
        decision = 'rejected';
        decidedBy = answer.by;
        const result =
          answer.reason === 'stopped'
            ? toolError('cancelled', 'The run was stopped before this call was approved.', false)
            : toolError(
                'rejected_by_user',
                answer.by === 'user'
                  ? `The person rejected this call (${def.id}). Do not retry it; explain what it would have done and offer alternatives.`
                  : `This call was not approved: ${answer.reason ?? 'no answer'}. Do not retry it unless the person asks.`,
                false,
              );
        return this.finish(req, tool, args, decision, decidedBy, result);
      }
    }
    if (req.signal.aborted) return this.finish(req, tool, args, decision, decidedBy, toolError('cancelled', 'The run was stopped before this call ran.', false));

    if (def.safety !== 'read') this.hooks.snapshot({ runId: req.runId, conversationId: req.conversationId, toolId: def.id, summary });
    if (def.oncePerSession) this.usedOnce.add(def.id);
    const limit = this.limitFor(def);
    const release = await limit.acquire();
    req.onStatus?.('running');
    const started = performance.now();
    // A ref'd timer, unlike AbortSignal.timeout: a pending time-out must keep the process alive.
    const timeout = def.timeoutMs ? new AbortController() : null;
    const timer = timeout ? setTimeout(() => timeout.abort(), def.timeoutMs) : null;
    const signal = timeout ? AbortSignal.any([req.signal, timeout.signal]) : req.signal;
    let result: ToolResult;
    let loadedLayers: string[] = [];
    // Only an approved call reaches this line with network origins (the policy always asks).
    const closeEgress = caps.networkOrigins.length ? this.hooks.openEgress(caps.networkOrigins) : null;
    const startedAt = Date.now();
    try {
      const data = await def.execute(args as never, { ...ctxBase, signal, progress: (f: number, m: string) => req.onProgress?.(clamp01(f), m) } as never);
      loadedLayers = await this.loadProduced(data);
      result = { ok: true, data };
    } catch (err) {
      if (timeout?.signal.aborted) result = toolError('timeout', `${def.id} took longer than ${Math.round(def.timeoutMs! / 1000)} s and was stopped.`, true);
      else if (req.signal.aborted) result = toolError('cancelled', `${def.id} was stopped.`, false);
      else result = withEgressHint(failureOf(def, err), this.hooks.egressRefusedSince?.(startedAt) ?? []);
    } finally {
      closeEgress?.();
      if (timer) clearTimeout(timer);
      release();
    }
    return this.finish(req, tool, args, decision, decidedBy, result, Math.round(performance.now() - started), loadedLayers);
  }

  private limitFor(def: ToolDefinition): Semaphore {
    let s = this.limits.get(def.id);
    if (!s) this.limits.set(def.id, (s = new Semaphore(def.concurrency ?? Number.POSITIVE_INFINITY)));
    return s;
  }

  /** Loads the layers a payload lists in `load_layers`; a failure to load is reported, not fatal. */
  private async loadProduced(data: unknown): Promise<string[]> {
    const list = (data as { load_layers?: unknown } | null)?.load_layers;
    if (!Array.isArray(list)) return [];
    const names: string[] = [];
    for (const item of list) {
      const parsed = LoadLayer.safeParse(item);
      if (parsed.success) names.push(await this.hooks.loadProduced(parsed.data));
    }
    return names;
  }

  private finish(
    req: DispatchRequest,
    tool: RegisteredTool | null,
    args: unknown,
    decision: NewAuditEntry['decision'],
    decidedBy: NewAuditEntry['decidedBy'],
    result: ToolResult,
    durationMs: number | null = null,
    loadedLayers: string[] = [],
  ): DispatchOutcome {
    this.hooks.audit({
      conversationId: req.conversationId,
      runId: req.runId,
      caller: req.caller,
      toolId: tool?.def.id ?? req.name,
      toolVersion: tool?.def.version ?? null,
      definitionHash: tool?.definitionHash ?? null,
      args,
      decision,
      decidedBy,
      outcome: result.ok ? 'ok' : 'error',
      errorCode: result.ok ? null : result.error.code,
      durationMs,
    });
    return { result, tool, args, durationMs, loadedLayers };
  }
}

const LoadLayer = z.object({ path: z.string().min(1), name: z.string().optional() });

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function failureOf(def: ToolDefinition, err: unknown): ToolResult {
  return err instanceof ToolFailure
    ? toolError(err.code, err.message, err.retryable, err.hint)
    : toolError('handler_error', `${def.id} failed: ${err instanceof Error ? err.message : String(err)}`, false);
}

/** A read that failed because GDAL was refused the network says so, with what to do. */
function withEgressHint(result: ToolResult, refused: string[]): ToolResult {
  const origins = [...new Set(refused)];
  if (result.ok || origins.length === 0) return result;
  const hint =
    `Mapwright's egress gate refused ${origins.join(', ')}: no approved call was using ${origins.length === 1 ? 'it' : 'them'}. ` +
    'Data from the network is read only by a call that names the URL itself (layers_load, inspect_describe_path), which the person approves.';
  return { ok: false, error: { ...result.error, hint: result.error.hint ? `${result.error.hint} ${hint}` : hint } };
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

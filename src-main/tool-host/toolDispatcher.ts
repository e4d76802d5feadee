import { z } from 'zod';
import { LayerInfo } from '../../src-shared/domain/layer.js';
import type { ChangeSample } from '../../src-shared/domain/chat.js';
import type { ApprovalMode } from '../../src-shared/domain/toolLayer.js';
import type { HandleName, Handles } from '../../src-shared/tools/handles.js';
import { ToolFailure, toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { Caller, CommandDefinition, LoadLayerRequest, Safety, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import type { ApprovalBroker } from './approvalBroker.js';
import { isDatabaseOrigin } from '../../src-shared/domain/pgSource.js';
import { decideApproval, originsGranted } from './approvalPolicy.js';
import { assessCall, type CallCapabilities, type PrivatePathCheck } from './callCapabilities.js';
import { Semaphore } from './semaphore.js';
import { applyToolRules } from '../../src-shared/tools/paramRules/toolRules.js';
import type { RegisteredTool, ToolRegistry, ToolSet } from './toolRegistry.js';

export interface DispatchRequest {
  /** Tool id or wire name. */
  name: string;
  /** JSON text from the model, or an object from the GUI. */
  rawArgs: unknown;
  caller: Caller;
  /** For a `client` call: the outside MCP client (`<name> <version>`), audited and shown in the dialog. */
  client?: string;
  /**
   * The person gave this input to main directly (a path picked in a native open dialog), not
   * through the renderer: a GUI call carrying it is their own action and is not asked again.
   */
  trustedInput?: boolean;
  /**
   * Issue 17: a step of a recipe the person replays. Its arguments come from a file, not from
   * the person: the policy judges it as it judges the model's calls (writes ask unless granted
   * or in Auto, Plan refuses, user-only tools are refused), the audit still says `user`, and the
   * dialog's summary starts with `label` ("Recipe step 2 of 3"); `note` is shown among its facts.
   */
  recipeStep?: { label: string; note?: string };
  callId: string;
  runId: string | null;
  conversationId: string | null;
  signal: AbortSignal;
  /** Told when the call is known and validated, before any approval. */
  onValidated?(tool: RegisteredTool, args: unknown, summary: string): void;
  onStatus?(status: 'awaiting_approval' | 'running'): void;
  onProgress?(fraction: number, message: string): void;
}

/** A Command the person triggered in the GUI (undo, approval mode…). */
export interface CommandRequest {
  command: CommandDefinition;
  /** The parameters the GUI sent. */
  rawArgs: unknown;
  conversationId: string | null;
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
  /** Called before an approved change runs (undo); returns the snapshot's id, which the tool gets as `changeId`. */
  snapshot(info: { runId: string | null; conversationId: string | null; toolId: string; summary: string }): number | void;
  /**
   * The summary a person reads (dialog, undo, audit): the interface passes layer ids, the model
   * names; the host puts names in place of the ids it knows.
   */
  readableSummary?(summary: string): string;
  /** A call that took snapshot `id` failed: the host forgets it if nothing changed (no empty undo entry). */
  discardSnapshot?(id: number): void;
  /** Loads a produced layer; returns its name in the project. */
  loadProduced(request: LoadLayerRequest): Promise<string>;
  /**
   * Issue 17: writes the call's lineage (tool, version, definition hash, arguments, inputs with
   * checksums, time) into a produced file before it is loaded. A failure is reported, not fatal.
   */
  stampLineage?(produced: ProducedFile): Promise<void>;
  /**
   * Issue 17: the QA report of a produced layer once loaded (counts, invalid geometries, CRS and
   * unit sanity, extent against the inputs, nodata share); returned to the model with the payload.
   */
  qaReport?(produced: ProducedFile & { layerName: string }): Promise<unknown>;
  /** The app's own files, which no source parameter may name. */
  privatePaths: PrivatePathCheck;
  /** Opens the egress gate to these origins while an approved network call runs; returns the closer. */
  openEgress(origins: readonly string[]): () => void;
  /** Origins the egress gate refused since `sinceMs` (epoch ms), to tell the model why a read failed. */
  egressRefusedSince?(sinceMs: number): string[];
  /** The plugin versions a conversation is pinned to (namespace → version); none: the current ones. */
  pinsFor?(conversationId: string | null): ReadonlyMap<string, string>;
  /** Issue #13: network origins the person approved for this project's map sources (decideApproval's `grantedOrigins`). */
  grantedOrigins?(): ReadonlySet<string>;
  /**
   * Issue 16: PostGIS servers (`postgres://…`) the person just approved a call to: remembered
   * for this project, so later calls to the same database are not asked about the network again.
   */
  rememberOrigins?(origins: readonly string[]): void;
}

/** A file a successful call produced (a `load_layers` item), with the call that made it. */
export interface ProducedFile {
  tool: RegisteredTool;
  /** The validated arguments that ran. */
  args: unknown;
  request: LoadLayerRequest;
  /** When the call started (epoch ms). */
  startedAt: number;
  signal: AbortSignal;
}

/** How a call got its go-ahead (or not), as the audit records it. */
interface Verdict {
  decision: NewAuditEntry['decision'];
  decidedBy: NewAuditEntry['decidedBy'];
}
const REFUSED_BY_SYSTEM: Verdict = { decision: 'refused', decidedBy: 'system' };
const REFUSED_BY_POLICY: Verdict = { decision: 'refused', decidedBy: 'policy' };
const USER_ACTION: Verdict = { decision: 'user_action', decidedBy: 'user' };

/** What the audit needs of a request. */
type AuditedRequest = Pick<DispatchRequest, 'name' | 'caller' | 'runId' | 'conversationId' | 'client'>;

/** A stage either hands its result to the next one or ends the call (already audited). */
interface Ended {
  ended: DispatchOutcome;
}
type Staged<T> = T | Ended;
function isEnded<T extends object>(step: Staged<T>): step is Ended {
  return 'ended' in step;
}

type Preview = Record<string, string | number | boolean | null>;

/** A known tool and its validated arguments. */
interface ResolvedCall {
  tool: RegisteredTool;
  args: unknown;
}

/** After `prepare` and the capability check: exactly what the dialog shows and what runs. */
interface PreparedCall extends ResolvedCall {
  caps: CallCapabilities;
  summary: string;
  preview?: Preview;
  sample?: ChangeSample;
  /** The safety this call asks with: the tool's, or `destructive` when `prepare` raised it. */
  safety: Safety;
}

/**
 * The one gate every call passes, whoever makes it (model, layer panel, drag-and-drop, the
 * GUI's Commands): look up → validate → prepare → policy → approval → snapshot → execute
 * (declared handles only, time-out, concurrency) → load produced layers → audit. It never
 * throws: every failure is a structured result the model or the panel can read.
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
    const resolved = this.resolve(req);
    if (isEnded(resolved)) return resolved.ended;
    const call = await this.prepare(req, resolved);
    if (isEnded(call)) return call.ended;
    req.onValidated?.(call.tool, call.args, call.summary);
    const verdict = await this.approve(req, call);
    if (isEnded(verdict)) return verdict.ended;
    return this.runLimited(req, call, verdict);
  }

  /**
   * A Command through the same gate as a tool: its parameters validated, a failure made a
   * structured result, the call audited as the person's own action. Commands are user only
   * and are their own approval: no policy, no dialog.
   */
  async runCommand(req: CommandRequest): Promise<DispatchOutcome> {
    const { command } = req;
    const audited: AuditedRequest = { name: command.id, caller: 'user', runId: null, conversationId: req.conversationId };
    const parsed = parseArgs(command.input, req.rawArgs, { name: command.id, noun: 'parameters', retryable: false });
    if (!parsed.ok) return this.finish(audited, null, req.rawArgs, REFUSED_BY_SYSTEM, parsed.error);
    let result: ToolResult;
    try {
      result = { ok: true, data: await command.run(parsed.args) };
    } catch (err) {
      result = failureOf(command.id, err);
    }
    return this.finish(audited, null, parsed.args, USER_ACTION, result);
  }

  /**
   * A call the caller's own rules answer without running it (the agent's loop guard:
   * `loop_detected`). Nothing runs, but the audit log still records the call, refused.
   */
  refuse(req: DispatchRequest, result: ToolResult): DispatchOutcome {
    const tool = this.toolsFor(req).find(req.name) ?? null;
    const parsed = tool ? parseToolArgs(tool, req.rawArgs) : null;
    return this.finish(req, tool, parsed?.ok ? parsed.args : req.rawArgs, REFUSED_BY_POLICY, result);
  }

  /** The tools as the call's conversation sees them: its pinned plugin versions. */
  private toolsFor(req: Pick<DispatchRequest, 'conversationId'>): ToolSet {
    const pins = this.hooks.pinsFor?.(req.conversationId);
    return pins?.size ? this.registry.view(pins) : this.registry;
  }

  /** Look up (`unknown_tool` with the nearest names) → validate → once per session. */
  private resolve(req: DispatchRequest): Staged<ResolvedCall> {
    const tools = this.toolsFor(req);
    const tool = tools.find(req.name);
    if (!tool) {
      const near = tools.nearest(req.name);
      return this.end(
        req,
        null,
        req.rawArgs,
        REFUSED_BY_SYSTEM,
        toolError('unknown_tool', `There is no tool '${req.name}'.`, false, `Did you mean: ${near.join(', ')}?`),
      );
    }
    const { def } = tool;
    const parsed = parseToolArgs(tool, req.rawArgs);
    if (!parsed.ok) return this.end(req, tool, req.rawArgs, REFUSED_BY_SYSTEM, parsed.error);
    if (def.oncePerSession && this.usedOnce.has(def.id)) {
      return this.end(
        req,
        tool,
        parsed.args,
        REFUSED_BY_POLICY,
        toolError('not_allowed', `${def.id} runs once per session and has already run.`, false),
      );
    }
    return { tool, args: parsed.args };
  }

  /** Sources judged → the tool's `prepare` → sources judged again → the call's summary. */
  private async prepare(req: DispatchRequest, { tool, args: parsed }: ResolvedCall): Promise<Staged<PreparedCall>> {
    const { def } = tool;
    // Sources are judged before `prepare`, which may already open them.
    const early = assessCall(def, parsed, this.hooks.privatePaths);
    if (!early.ok) return this.end(req, tool, parsed, REFUSED_BY_POLICY, early.error);
    let args = parsed;
    let preview: Preview | undefined;
    let sample: ChangeSample | undefined;
    let safety: Safety = def.safety;
    // Declared parameter rules: a missing layer or a text field is refused before the tool's own prepare and any dialog.
    const ruled = this.applyRules(req, tool, parsed);
    if (ruled) return this.end(req, tool, parsed, REFUSED_BY_SYSTEM, ruled);
    if (def.prepare) {
      try {
        const prepared = await def.prepare(args, {
          handles: pickHandles(this.handles, def.handles),
          caller: req.caller,
          signal: req.signal,
        });
        args = prepared.args;
        preview = prepared.preview;
        sample = prepared.sample;
        if (prepared.escalate === 'destructive') safety = 'destructive';
      } catch (err) {
        return this.end(req, tool, args, REFUSED_BY_SYSTEM, failureOf(def.id, err));
      }
    }
    // …and again after it when it changed them, since what it returns is what runs.
    const assessed = args === parsed ? early : assessCall(def, args, this.hooks.privatePaths);
    if (!assessed.ok) return this.end(req, tool, args, REFUSED_BY_POLICY, assessed.error);
    const summary = safeSummary(tool, args);
    const readable = this.hooks.readableSummary?.(summary) ?? summary;
    if (req.recipeStep?.note) preview = { ...preview, recipe: req.recipeStep.note };
    return {
      tool,
      args,
      caps: assessed.caps,
      summary: req.recipeStep ? `${req.recipeStep.label}: ${readable}` : readable,
      safety,
      ...(preview ? { preview } : {}),
      ...(sample ? { sample } : {}),
    };
  }

  /**
   * The tool's declared `rules` against the project (paramRules/): the failure to end the call
   * with, or null. A layer of the wrong kind or geometry gets a hint naming the tools of the
   * same group the model may call instead.
   */
  private applyRules(req: DispatchRequest, tool: RegisteredTool, args: unknown): ToolResult | null {
    if (!tool.def.rules) return null;
    try {
      const offered = () =>
        this.toolsFor(req)
          .forModel()
          .map((t) => t.def);
      applyToolRules(tool.def, args, this.handles.project, offered);
      return null;
    } catch (err) {
      return failureOf(tool.def.id, err);
    }
  }

  /** Policy, then the approval dialog when it asks: the verdict the call runs under, or its refusal. */
  private async approve(req: DispatchRequest, call: PreparedCall): Promise<Staged<Verdict>> {
    const { tool, args, caps, summary, preview, sample } = call;
    // A call `prepare` raised to destructive asks as one: always, never remembered.
    const def = call.safety === tool.def.safety ? tool.def : { ...tool.def, safety: call.safety };
    const { mode, askForReads } = this.hooks.policy();
    // A recipe's step is judged as an automated call: its arguments are a file's, not the person's.
    // And every step is approved (issue 17): Auto and session grants do not skip its dialog.
    const caller = req.recipeStep ? 'model' : req.caller;
    const stepMode = req.recipeStep && mode === 'auto' ? 'ask' : mode;
    const unverifiedGuiInput = caller === 'user' && caps.carriesPathOrSql && req.trustedInput !== true;
    // Issue #13: origins remembered for this project are not asked for again (the write policy still applies).
    const grantedOrigins = caps.networkOrigins.length && this.hooks.grantedOrigins ? this.hooks.grantedOrigins() : undefined;
    const networkGranted = originsGranted(def, caps.networkOrigins, grantedOrigins);
    const policy = decideApproval({
      def,
      caller,
      mode: stepMode,
      askForReads,
      granted: !req.recipeStep && this.approvals.isGranted(def.id, tool.definitionHash),
      networkOrigins: caps.networkOrigins,
      unverifiedGuiInput,
      ...(grantedOrigins ? { grantedOrigins } : {}),
    });
    if (policy.kind === 'refuse') return this.end(req, tool, args, REFUSED_BY_POLICY, toolError('not_allowed', policy.message, false));
    if (policy.kind === 'run') return { decision: policy.decision, decidedBy: policy.decision === 'user_action' ? 'user' : 'policy' };
    // Nobody could answer a dialog now (no window): refuse at once rather than leave the call hanging.
    if (!this.approvals.canAsk())
      return this.end(
        req,
        tool,
        args,
        REFUSED_BY_SYSTEM,
        toolError('not_allowed', `No Mapwright window is open to approve ${tool.wireName}; open the app and try again.`, false),
      );

    req.onStatus?.('awaiting_approval');
    // A call from an outside MCP client says so in the dialog, among the facts about its effect.
    const shown = req.caller === 'client' ? { ...preview, requestedBy: `MCP client ${req.client ?? '(unnamed)'}` } : preview;
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
        ...(sample ? { sample } : {}),
        rememberable: policy.rememberable,
        ...(shown ? { preview: shown } : {}),
        // A network question only when there is one: granted origins are not asked about again (#13).
        ...((caps.networkOrigins.length && !networkGranted) || def.origins?.length
          ? {
              network: [...caps.networkOrigins, ...(def.origins ?? [])],
              networkKept:
                def.remembersOrigins || (caps.networkOrigins.length > 0 && caps.networkOrigins.every(isDatabaseOrigin))
                  ? 'project'
                  : policy.rememberable
                    ? 'tool_version'
                    : 'call',
            }
          : {}),
        ...(unverifiedGuiInput ? { fromInterface: true } : {}),
      },
      tool.definitionHash,
      req.signal,
    );
    if (answer.decision === 'approve') {
      const databases = caps.networkOrigins.filter(isDatabaseOrigin);
      if (databases.length) this.hooks.rememberOrigins?.(databases);
      return { decision: 'approved', decidedBy: 'user' };
    }
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
    return this.end(req, tool, args, { decision: 'rejected', decidedBy: answer.by }, result);
  }

  /**
   * An approved call: snapshot (undo) → the tool's concurrency limit → time-out → egress for
   * its network origins → execute with the declared handles → load its produced layers → audit.
   */
  private async runLimited(req: DispatchRequest, call: PreparedCall, verdict: Verdict): Promise<DispatchOutcome> {
    const { tool, args, caps, summary } = call;
    const { def } = tool;
    if (req.signal.aborted)
      return this.finish(req, tool, args, verdict, toolError('cancelled', 'The run was stopped before this call ran.', false));

    const changeId =
      def.safety !== 'read' && def.undoable !== false
        ? (this.hooks.snapshot({ runId: req.runId, conversationId: req.conversationId, toolId: def.id, summary }) ?? null)
        : null;
    if (def.oncePerSession) this.usedOnce.add(def.id);
    const release = await this.limitFor(def).acquire();
    req.onStatus?.('running');
    const started = performance.now();
    // A ref'd timer, unlike AbortSignal.timeout: a pending time-out must keep the process alive.
    const timeout = def.timeoutMs ? new AbortController() : null;
    const timer = timeout ? setTimeout(() => timeout.abort(), def.timeoutMs) : null;
    const signal = timeout ? AbortSignal.any([req.signal, timeout.signal]) : req.signal;
    let result: ToolResult;
    let loadedLayers: string[] = [];
    // Only an approved call reaches this line with network origins (the policy always asks).
    // A PostGIS server is reached by the database driver, not through the HTTP egress gate.
    const httpOrigins = caps.networkOrigins.filter((o) => !isDatabaseOrigin(o));
    const closeEgress = httpOrigins.length ? this.hooks.openEgress(httpOrigins) : null;
    const startedAt = Date.now();
    try {
      const data = await def.execute(args, {
        handles: pickHandles(this.handles, def.handles),
        caller: req.caller,
        signal,
        progress: (f, m) => req.onProgress?.(clamp01(f), m),
        changeId,
      });
      const produced = await this.loadProduced(data, { tool, args, startedAt, signal });
      loadedLayers = produced.names;
      result = { ok: true, data: produced.qa.length ? { ...(data as object), qa: produced.qa } : data };
    } catch (err) {
      if (timeout?.signal.aborted)
        result = toolError('timeout', `${def.id} took longer than ${Math.round(def.timeoutMs! / 1000)} s and was stopped.`, true);
      else if (req.signal.aborted) result = toolError('cancelled', `${def.id} was stopped.`, false);
      else result = withEgressHint(failureOf(def.id, err), this.hooks.egressRefusedSince?.(startedAt) ?? []);
      if (changeId !== null) this.hooks.discardSnapshot?.(changeId);
    } finally {
      closeEgress?.();
      if (timer) clearTimeout(timer);
      release();
    }
    return this.finish(req, tool, args, verdict, result, Math.round(performance.now() - started), loadedLayers);
  }

  private limitFor(def: ToolDefinition): Semaphore {
    let s = this.limits.get(def.id);
    if (!s) this.limits.set(def.id, (s = new Semaphore(def.concurrency ?? Number.POSITIVE_INFINITY)));
    return s;
  }

  /**
   * The layers a payload lists in `load_layers`: lineage stamped into each file, then loaded,
   * then its QA report made. A failure to load is reported, not fatal.
   */
  private async loadProduced(data: unknown, call: Omit<ProducedFile, 'request'>): Promise<{ names: string[]; qa: unknown[] }> {
    const list = (data as { load_layers?: unknown } | null)?.load_layers;
    if (!Array.isArray(list)) return { names: [], qa: [] };
    const names: string[] = [];
    const qa: unknown[] = [];
    for (const item of list) {
      const parsed = LoadLayer.safeParse(item);
      if (!parsed.success) continue;
      const produced: ProducedFile = { ...call, request: parsed.data };
      await this.hooks.stampLineage?.(produced);
      const layerName = await this.hooks.loadProduced(parsed.data);
      names.push(layerName);
      const report = await this.hooks.qaReport?.({ ...produced, layerName });
      if (report) qa.push(report);
    }
    return { names, qa };
  }

  /** A stage's early end: the call audited as it stands. */
  private end(req: AuditedRequest, tool: RegisteredTool | null, args: unknown, verdict: Verdict, result: ToolResult): Ended {
    return { ended: this.finish(req, tool, args, verdict, result) };
  }

  /** Audit: one row per call, whatever happened. */
  private finish(
    req: AuditedRequest,
    tool: RegisteredTool | null,
    args: unknown,
    { decision, decidedBy }: Verdict,
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
      ...(req.caller === 'client' ? { client: req.client ?? null } : {}),
    });
    return { result, tool, args, durationMs, loadedLayers };
  }
}

/**
 * An item of a payload's `load_layers`. A malformed `info` is dropped (the host then describes
 * the file itself) rather than losing the layer.
 */
const LoadLayer = z.object({
  path: z.string().min(1),
  name: z.string().optional(),
  info: LayerInfo.optional().catch(undefined),
}) satisfies z.ZodType<LoadLayerRequest>;

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/** A thrown ToolFailure keeps its code; anything else is a `handler_error` naming the entry. */
function failureOf(entryId: string, err: unknown): ToolResult {
  return err instanceof ToolFailure
    ? toolError(err.code, err.message, err.retryable, err.hint)
    : toolError('handler_error', `${entryId} failed: ${err instanceof Error ? err.message : String(err)}`, false);
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

type Parsed = { ok: true; args: unknown } | { ok: false; error: ToolResult };

function parseToolArgs(tool: RegisteredTool, raw: unknown): Parsed {
  return parseArgs(tool.def.input, raw, { name: tool.wireName, noun: 'arguments', retryable: true });
}

/**
 * Validates a call's input against its schema: JSON text from the model or an object from the
 * GUI. Extra fields are dropped by zod's default object parsing: models add them, failing hurts
 * more. A problem comes back as `invalid_params` naming the field.
 */
function parseArgs(input: z.ZodType, raw: unknown, what: { name: string; noun: 'arguments' | 'parameters'; retryable: boolean }): Parsed {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      return {
        ok: false,
        error: toolError('invalid_params', `The ${what.noun} for ${what.name} are not valid JSON: ${raw.slice(0, 200)}`, what.retryable),
      };
    }
  }
  const result = input.safeParse(value ?? {});
  if (result.success) return { ok: true, args: result.data };
  const problems = result.error.issues.map((i) => `${i.path.join('.') || `(${what.noun})`}: ${i.message}`).join('; ');
  return { ok: false, error: toolError('invalid_params', `Invalid ${what.noun} for ${what.name}: ${problems}`, what.retryable) };
}

function safeSummary(tool: RegisteredTool, args: unknown): string {
  try {
    return tool.def.summary(args);
  } catch {
    return tool.def.title;
  }
}

/** A tool gets exactly the handles it declared; anything else is simply not there. */
function pickHandles<H extends HandleName>(all: Handles, names: readonly H[]): Pick<Handles, H> {
  const picked = {} as Pick<Handles, H>;
  for (const n of names) picked[n] = all[n];
  return Object.freeze(picked);
}

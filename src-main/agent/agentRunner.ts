import { randomUUID } from 'node:crypto';
import type { Emit } from '../../src-shared/bridge/contract.js';
import type { RunState } from '../../src-shared/domain/chat.js';
import type { ApprovalMode } from '../../src-shared/domain/toolLayer.js';
import type { ModelClient } from '../model/modelClient.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { ToolDispatcher } from '../tool-host/toolDispatcher.js';
import type { ToolRegistry } from '../tool-host/toolRegistry.js';
import type { RunContext } from './runContext.js';
import { CallGuards } from './steps/callGuards.js';
import { runToolCall } from './steps/runToolCall.js';
import { streamTurn } from './steps/streamTurn.js';
import type { TurnRequests } from './turnRequests.js';

export interface AgentDeps {
  store: ProjectStore;
  registry: ToolRegistry;
  dispatcher: ToolDispatcher;
  /** null when no model is configured; `modelHelp` then tells the person how. */
  model: ModelClient | null;
  modelHelp: string;
  emit: Emit;
  /** The approval mode now (Plan offers read tools only). */
  mode(): ApprovalMode;
  /** Builds each request: system prompt, the tools the run's skills offer, the conversation window. */
  turns: TurnRequests;
  maxSteps?: number;
}

const PLAN_MODE_RULES = [
  'Plan mode is on: you can only inspect. Do not try to change anything.',
  'Answer with a short numbered plan: for each step, the tool you would call and its arguments, and what to check.',
  'The person can then run the plan with one click.',
].join('\n');

interface LiveRun {
  id: string;
  abort: AbortController;
  status: RunState['status'];
}

/**
 * The agent loop, one run at a time per conversation (DESIGN §5): request → streamed turn →
 * tool calls → results → next turn; it ends on a turn without calls, on Stop, on a model
 * error or on the step budget. The steps live in `steps/`; this file only sequences them.
 */
export class AgentRunner {
  private live: LiveRun | null = null;

  constructor(private readonly deps: AgentDeps) {}

  state(): RunState {
    return this.live ? { runId: this.live.id, status: this.live.status } : { runId: null, status: 'idle' };
  }

  /** Saves the person's message and starts a run; returns at once. */
  send(text: string): { runId: string | null } {
    if (this.live) throw new Error('The agent is still working on the last message. Wait for it or press Stop.');
    const run: LiveRun = { id: randomUUID(), abort: new AbortController(), status: 'running' };
    const ctx = this.context(run.id, run.abort);
    ctx.save({ id: randomUUID(), role: 'user', text });
    const model = this.deps.model;
    if (!model) {
      ctx.save({ id: randomUUID(), role: 'notice', text: this.deps.modelHelp, level: 'error' });
      return { runId: null };
    }
    this.live = run;
    this.announce();
    void this.loop(ctx, model)
      .catch((err: unknown) => {
        // The loop never throws on a tool; this is a bug or a broken store. Say so, keep the app up.
        ctx.save({
          id: randomUUID(),
          role: 'notice',
          text: `Internal error: ${err instanceof Error ? err.message : String(err)}`,
          level: 'error',
        });
      })
      .finally(() => {
        this.live = null;
        this.announce();
      });
    return { runId: run.id };
  }

  stop(): boolean {
    if (!this.live) return false;
    this.live.abort.abort();
    return true;
  }

  private async loop(ctx: RunContext, model: ModelClient): Promise<void> {
    const { dispatcher } = this.deps;
    const guards = new CallGuards();
    // Per run: the skills it loads add their tools; the window is compacted when it would overflow.
    const turns = this.deps.turns.startRun(ctx);
    const maxSteps = this.deps.maxSteps ?? 25;
    for (let step = 0; step < maxSteps; step++) {
      // Asked every turn: the mode may change mid-run, and Plan mode offers read tools only.
      const mode = this.deps.mode();
      const request = await turns.next({ readOnly: mode === 'plan', extraRules: mode === 'plan' ? PLAN_MODE_RULES : null });
      const outcome = await streamTurn(ctx, model, request);
      if (outcome.kind === 'failed') {
        const e = outcome.error;
        const text = e.aborted ? 'Stopped.' : `The model request failed${e.status ? ` (HTTP ${e.status})` : ''}: ${e.message}`;
        ctx.save({ id: randomUUID(), role: 'notice', text, level: e.aborted ? 'info' : 'error' });
        return;
      }
      if (outcome.toolCalls.length === 0) return;
      for (const call of outcome.toolCalls) {
        this.setStatus('running');
        const result = await runToolCall(ctx, dispatcher, guards, call);
        const stop = guards.after(result);
        if (stop) {
          ctx.save({ id: randomUUID(), role: 'notice', text: stop, level: 'error' });
          return;
        }
        if (ctx.signal.aborted) break;
      }
      if (ctx.signal.aborted) {
        ctx.save({ id: randomUUID(), role: 'notice', text: 'Stopped.', level: 'info' });
        return;
      }
    }
    ctx.save({ id: randomUUID(), role: 'notice', text: `Stopped after ${maxSteps} steps (the step budget of one run).`, level: 'error' });
  }

  /** Approval waits are announced as run state so the UI can show why nothing moves. */
  setStatus(status: RunState['status']): void {
    if (this.live && this.live.status !== status) {
      this.live.status = status;
      this.announce();
    }
  }

  private announce(): void {
    this.deps.emit('run/changed', this.state());
  }

  private context(runId: string, abort: AbortController): RunContext {
    const { store, emit } = this.deps;
    const used = new Set(
      store.conversations
        .messages(store.conversationId)
        .flatMap((m) => m.toolCalls ?? [])
        .map((c) => c.id),
    );
    return {
      runId,
      conversationId: store.conversationId,
      signal: abort.signal,
      emit,
      usedCallIds: used,
      save: (draft) => {
        const message = store.conversations.upsert(store.conversationId, draft);
        emit('message/upserted', message);
        if (draft.role === 'tool') this.setStatus(draft.tool?.status === 'awaiting_approval' ? 'awaiting_approval' : 'running');
        return message;
      },
    };
  }
}

import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import type { Memory } from '../../src-shared/domain/memory.js';
import { buildSummary, splitTurns, turnsToFold, windowOf } from '../conversations/contextWindow.js';
import type { ConversationSettings } from '../conversations/conversationSettings.js';
import type { ModelMessage, ModelTool, TurnRequest } from '../model/modelClient.js';
import { SkillSession, type SkillSource } from '../skills/skillSession.js';
import type { MessageDraft } from '../store/conversationRepo.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { ToolRegistry } from '../tool-host/toolRegistry.js';
import { memoryExcerpt } from '../memory/memoryExcerpt.js';
import { historyToModelMessages } from './steps/historyToModelMessages.js';
import { buildSystemPrompt, type ViewSummary } from './systemPrompt.js';

export interface TurnRequestDeps {
  store: ProjectStore;
  registry: ToolRegistry;
  skills: SkillSource;
  settings: ConversationSettings;
  /** The map view now, or null when no window answers; asked once per request. */
  currentView?: () => Promise<ViewSummary | null>;
  /**
   * The plugin versions this conversation runs with (namespace → version), pinning the
   * current ones it has not met yet; none: every plugin at its current version.
   */
  pins?: (conversationId: string) => ReadonlyMap<string, string>;
  /** The interface language chosen in Settings (`en`, `zh-CN`), asked at each request; none: `settings.language`. */
  uiLanguage?: () => string;
  /** The person's memories for this project (theirs and the project's), read at each request; none: no excerpt. */
  memories?: () => readonly Memory[];
}

export interface TurnOptions {
  /** Plan mode: read tools only. */
  readOnly?: boolean;
  /** Extra rules for this turn (Plan mode's), appended to the system prompt. */
  extraRules?: string | null;
}

/** Where a run saves what it adds to its conversation (the compaction summary). */
export interface RunSaver {
  save(draft: MessageDraft): ChatMessage;
}

/** The shares of the budget a summary may take, and that the window is brought down to. */
const SUMMARY_SHARE = 0.15;
const WINDOW_SHARE_AFTER_COMPACTION = 0.6;

/**
 * Assembles each model request of a run (DESIGN §5): the system prompt from its parts, the
 * tools the run's skills offer, and the conversation window — compacted into a summary
 * message when it would overflow the context budget.
 */
export class TurnRequests {
  constructor(private readonly deps: TurnRequestDeps) {}

  startRun(run: RunSaver): RunTurnRequests {
    return new RunTurnRequests(this.deps, run);
  }
}

export class RunTurnRequests {
  readonly skills: SkillSession;
  /** Messages after this seq belong to this run (the person's message was saved just before). */
  private readonly startSeq: number;

  constructor(
    private readonly deps: TurnRequestDeps,
    private readonly run: RunSaver,
  ) {
    this.skills = new SkillSession(deps.skills);
    const transcript = deps.store.conversations.messages(deps.store.conversationId);
    this.startSeq = (transcript.at(-1)?.seq ?? 0) - 1;
  }

  async next(options: TurnOptions = {}): Promise<TurnRequest> {
    const { store, registry, settings } = this.deps;
    const transcript = store.conversations.messages(store.conversationId);
    this.skills.noteMessages(transcript.filter((m) => m.seq > this.startSeq));
    const pins = this.deps.pins?.(store.conversationId);
    const known = pins?.size ? registry.view(pins) : registry;
    const tools = this.skills.modelTools(known.forModel({ readOnly: options.readOnly, offered: this.skills.offeredToolIds(known) }));
    const view = (await this.deps.currentView?.()) ?? null;
    const memories = this.memoryExcerpt(transcript);
    const systemFor = (summary: string | null) => this.systemPrompt(view, summary, options.extraRules ?? null, memories);

    let window = windowOf(transcript);
    let system = systemFor(window.summary?.text ?? null);
    let history = historyToModelMessages(window.messages);
    const budget = settings.contextChars - settings.replyReserveChars;
    const toolsChars = charsOf(tools);
    if (system.length + toolsChars + charsOf(history) > budget) {
      const maxSummary = Math.round(Math.min(6_000, Math.max(600, budget * SUMMARY_SHARE)));
      const base = systemFor(null).length + toolsChars + maxSummary;
      const target = Math.max(0, (budget - base) * WINDOW_SHARE_AFTER_COMPACTION);
      const turns = splitTurns(window.messages);
      const fold = turnsToFold(turns, (messages) => charsOf(historyToModelMessages(messages)), target);
      if (fold > 0) {
        const folded = turns.slice(0, fold);
        this.run.save({
          id: randomUUID(),
          role: 'notice',
          level: 'info',
          text: buildSummary(window.summary?.text ?? null, folded, maxSummary),
          compaction: { throughSeq: folded.at(-1)!.at(-1)!.seq, foldedMessages: folded.flat().length },
        });
        window = windowOf(store.conversations.messages(store.conversationId));
        system = systemFor(window.summary?.text ?? null);
        history = historyToModelMessages(window.messages);
      }
    }
    return { messages: [{ role: 'system', content: system }, ...history], tools };
  }

  /** Ranked against the person's latest message: what they ask now decides which memories fit. */
  private memoryExcerpt(transcript: readonly ChatMessage[]): string | null {
    const memories = this.deps.memories?.() ?? [];
    if (memories.length === 0) return null;
    const latest = transcript.findLast((m) => m.role === 'user')?.text ?? '';
    return memoryExcerpt(memories, latest);
  }

  private systemPrompt(
    view: ViewSummary | null,
    earlierSummary: string | null,
    extraRules: string | null,
    memories: string | null,
  ): string {
    const { store, skills, settings } = this.deps;
    const preloaded = this.skills.preloaded();
    const prompt = buildSystemPrompt({
      catalogue: skills.list(),
      preloaded,
      project: { name: store.info.name, layers: store.layers.list(), view },
      language: this.deps.uiLanguage?.() ?? settings.language,
      earlierSummary,
      memories,
    });
    return extraRules ? `${prompt}\n\n${extraRules}` : prompt;
  }
}

/** Characters as sent (JSON), which is what a context budget in characters should count. */
function charsOf(value: readonly ModelMessage[] | readonly ModelTool[]): number {
  return JSON.stringify(value).length;
}

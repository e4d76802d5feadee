import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Emit, MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { RunState } from '../../src-shared/domain/chat.js';
import type { Memory } from '../../src-shared/domain/memory.js';
import { TurnRequests } from '../agent/turnRequests.js';
import type { ViewSummary } from '../agent/systemPrompt.js';
import { readConversationSettings, type ConversationSettings } from '../conversations/conversationSettings.js';
import { ConversationService } from '../conversations/conversationService.js';
import { durableDeltas } from '../conversations/durableDeltas.js';
import { SkillCatalogue } from '../skills/skillCatalogue.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { ToolRegistry } from '../tool-host/toolRegistry.js';

/**
 * Skills: built-in from the app's `skills/`, the person's from `<home>/skills` (created so
 * there is a place to drop them), the project's from `skills/` beside the project file.
 * Built before the tool host, which registers `skills_load_skill` over it.
 */
export function createSkillCatalogue(o: {
  home: string;
  projectPath: string;
  builtInDir: string;
  report?: (line: string) => void;
}): SkillCatalogue {
  const userDir = join(o.home, 'skills');
  try {
    mkdirSync(userDir, { recursive: true });
  } catch {
    // A read-only data folder only means no user skills.
  }
  const catalogue = new SkillCatalogue([
    { dir: o.builtInDir, origin: 'built-in' },
    { dir: userDir, origin: 'user' },
    { dir: join(dirname(o.projectPath), 'skills'), origin: 'project' },
  ]);
  // Someone editing a skill needs to hear what is wrong with it; each problem is said once.
  const said = new Set<string>();
  const report = o.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  catalogue.onChange(() => {
    for (const p of catalogue.problems()) {
      const line = `Skill ${p.skill} (${p.origin}, ${p.file}) ${p.severity === 'error' ? 'not loaded' : 'warning'}: ${p.message}`;
      if (!said.has(line)) report(line);
      said.add(line);
    }
  });
  return catalogue;
}

export interface ConversationLayerDeps {
  store: ProjectStore;
  emit: Emit;
  registry: ToolRegistry;
  skills: SkillCatalogue;
  runState(): RunState;
  /** Asks the renderer for the map view (the tool host's renderer query); rejects when none answers. */
  askView?(signal: AbortSignal): Promise<unknown>;
  settings?: ConversationSettings;
  /** A conversation's plugin versions, pinning the current ones it meets (plugins/pluginPins.ts). */
  pins?(conversationId: string): ReadonlyMap<string, string>;
  /** The interface language chosen in Settings, read at each request so a change applies to the next one. */
  uiLanguage?(): string;
  /** The person's memories and the project's (issue 17): an excerpt goes into each system prompt. */
  memories?(): readonly Memory[];
}

/** How long a request waits for the map view before going without it. */
const VIEW_WAIT_MS = 400;

/**
 * Conversations, the request assembly of the agent and the skills, wired for the composition
 * root: what the runner needs (`turns`, and `emit` that saves streamed text before showing
 * it) and the `conversations/*` bridge handlers.
 */
export function createConversationLayer(d: ConversationLayerDeps) {
  const settings = d.settings ?? readConversationSettings();
  const { store } = d;
  store.conversations.limit = settings.maxConversations;
  d.skills.checkToolsAgainst(() => new Set(d.registry.all().map((t) => t.def.id)));
  void d.skills.watch().catch(() => {}); // hot-loading is a convenience: without it skills still load at start

  const askView = d.askView;
  const turns = new TurnRequests({
    store,
    registry: d.registry,
    skills: d.skills,
    settings,
    currentView: askView ? () => viewOf(askView) : undefined,
    ...(d.pins ? { pins: d.pins } : {}),
    ...(d.uiLanguage ? { uiLanguage: d.uiLanguage } : {}),
    ...(d.memories ? { memories: d.memories } : {}),
  });
  const conversations = new ConversationService({ store, emit: d.emit, runState: d.runState });
  const runnerEmit = durableDeltas(d.emit, (messageId, text) => {
    store.conversations.upsert(store.conversationId, { id: messageId, role: 'assistant', text });
  });

  const handlers: Pick<
    MethodHandlers,
    'conversations/list' | 'conversations/open' | 'conversations/new' | 'conversations/rename' | 'conversations/delete'
  > = {
    'conversations/list': async () => conversations.list(),
    'conversations/open': async ({ id }) => conversations.open(id),
    'conversations/new': async () => conversations.startNew(),
    'conversations/rename': async ({ id, title }) => ({ conversation: conversations.rename(id, title) }),
    'conversations/delete': async ({ id }) => conversations.remove(id),
  };

  return {
    settings,
    turns,
    conversations,
    runnerEmit,
    handlers,
    async close() {
      runnerEmit.flushAll();
      conversations.close();
      await d.skills.close();
    },
  };
}

async function viewOf(ask: (signal: AbortSignal) => Promise<unknown>): Promise<ViewSummary | null> {
  try {
    const v = (await ask(AbortSignal.timeout(VIEW_WAIT_MS))) as Partial<ViewSummary> | null;
    const finite = (xs: unknown, n: number) => Array.isArray(xs) && xs.length === n && xs.every((x) => Number.isFinite(x));
    if (!v || !finite(v.center, 2) || !finite(v.bounds, 4) || !Number.isFinite(v.zoom)) return null;
    return { center: v.center!, zoom: v.zoom!, bounds: v.bounds! };
  } catch {
    return null;
  }
}

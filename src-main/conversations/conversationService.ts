import { randomUUID } from 'node:crypto';
import type { Emit } from '../../src-shared/bridge/contract.js';
import type { ChatMessage, RunState } from '../../src-shared/domain/chat.js';
import type { ConversationSummary } from '../store/conversationRepo.js';
import type { ProjectStore } from '../store/projectStore.js';

/** Thrown when the person tries to switch conversations during a run; the bridge shows the message. */
export class ConversationBusyError extends Error {
  constructor(what: string, status: RunState['status']) {
    super(
      status === 'awaiting_approval'
        ? `Cannot ${what} while the assistant waits for your approval: answer the dialog or press Stop first.`
        : `Cannot ${what} while the assistant is working: wait for it or press Stop first.`,
    );
    this.name = 'ConversationBusyError';
  }
}

export interface ConversationServiceDeps {
  store: ProjectStore;
  emit: Emit;
  /** The agent's state: switching is refused unless it is idle. */
  runState(): RunState;
}

/**
 * The conversation list of the open project: open, start, rename, delete. A run belongs to
 * the current conversation, so anything that changes which one is current is refused while
 * a run is live or waiting for approval. Every change is announced as `conversations/changed`;
 * a switch also as `conversations/opened` with the messages to show.
 */
export class ConversationService {
  private readonly unsubscribe: () => void;
  private refresh: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: ConversationServiceDeps,
    /** Later messages change only counts and times in the list: announced at most this often. */
    private readonly refreshMs = 1000,
  ) {
    this.unsubscribe = deps.store.conversations.subscribe(({ created }) => {
      // A first message writes the row and gives the title: the list changed, say so now.
      if (created) this.announce();
      else this.refresh ??= setTimeout(() => this.announce(), this.refreshMs);
    });
  }

  list(): { conversations: ConversationSummary[]; currentId: string } {
    return { conversations: this.deps.store.conversations.list(), currentId: this.deps.store.conversationId };
  }

  /**
   * The messages travel once, in `conversations/opened` (a long conversation is megabytes of
   * JSON); the answer only says which one is current and how long it is. Opening the current
   * one announces nothing: the renderer already shows it.
   */
  open(id: string): { conversationId: string; messageCount: number } {
    const { store } = this.deps;
    if (id !== store.conversationId) {
      this.refuseWhileBusy('open another conversation');
      if (!store.conversations.exists(id)) throw new Error('That conversation no longer exists.');
      store.conversationId = id;
      return { conversationId: id, messageCount: this.announceOpened().length };
    }
    return { conversationId: store.conversationId, messageCount: store.conversations.count(store.conversationId) };
  }

  /** An empty conversation becomes current; nothing is written until its first message. */
  startNew(): { conversationId: string } {
    const { store } = this.deps;
    // Already on an empty one: reuse it rather than pile up ids.
    if (store.conversations.exists(store.conversationId)) {
      this.refuseWhileBusy('start a new conversation');
      store.conversationId = randomUUID();
      this.announceOpened();
    }
    return { conversationId: store.conversationId };
  }

  rename(id: string, title: string): ConversationSummary {
    const renamed = this.deps.store.conversations.rename(id, title);
    if (!renamed) throw new Error('That conversation no longer exists.');
    this.announce();
    return renamed;
  }

  /** Deleting the current conversation switches to a new empty one, so it is refused mid-run. */
  remove(id: string): { deleted: boolean; currentId: string } {
    const { store } = this.deps;
    const isCurrent = id === store.conversationId;
    if (isCurrent) this.refuseWhileBusy('delete the conversation in use');
    const deleted = store.conversations.remove(id);
    if (isCurrent) {
      store.conversationId = randomUUID();
      this.announceOpened();
    } else if (deleted) this.announce();
    return { deleted, currentId: store.conversationId };
  }

  close(): void {
    this.unsubscribe();
    if (this.refresh) clearTimeout(this.refresh);
    this.refresh = null;
  }

  private refuseWhileBusy(what: string): void {
    const { status } = this.deps.runState();
    if (status !== 'idle') throw new ConversationBusyError(what, status);
  }

  /** Tells the renderer the current conversation changed; returns the messages it was sent. */
  private announceOpened(): ChatMessage[] {
    const { store, emit } = this.deps;
    const messages = store.conversations.messages(store.conversationId);
    emit('conversations/opened', { conversationId: store.conversationId, messages });
    this.announce();
    return messages;
  }

  private announce(): void {
    if (this.refresh) clearTimeout(this.refresh);
    this.refresh = null;
    this.deps.emit('conversations/changed', this.list());
  }
}

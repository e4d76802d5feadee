/**
 * Opening a long conversation: the renderer's chat store, old algorithm against new, in the
 * same run, and (with --browser) the real web host in Chromium.
 *
 *   npx tsx scripts/bench/chatStore.mts [--sizes 1000,2000,5000,10000] [--runs 3]
 *   npx tsx scripts/bench/chatStore.mts --browser [--size 10000] [--baseline-dist <dir>]
 *
 * Store part: the messages are a conversation as the app saves it (scripts/bench/chatFixtures.ts:
 * requests, tool-calling turns, tool cards with arguments and results, notices, answers). "old"
 * is the algorithm the store had before (kept below as the naive baseline: every message
 * upserted into a copy of the whole map and id list); "new" is the store itself
 * (`createAppStore().openConversation`). Then, on top of the open conversation, one live turn
 * (`message/upserted` and `assistant/delta` events) is timed per event. Times are best of
 * --runs (the old algorithm runs once above 2,000 messages: it takes seconds).
 *
 * Browser part (needs `npm run build`): a project is seeded through the app's own
 * ConversationRepo with a --size message conversation and a small current one; the built web
 * host (dist/, or --dist <dir>) is started on it and Chromium opens the big one from the
 * conversation list — the time from the click until its newest message is on screen, and the
 * longest task that blocked the page meanwhile — then reloads the page with the big one
 * current (project/get). With --baseline-dist <dir> (another build, e.g. of the previous commit:
 * `git archive HEAD | tar -x -C /tmp/old && cd /tmp/old && ln -s /work/main/node_modules && npm run build`)
 * the same measurement runs on it first.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { events } from '../../src-shared/bridge/contract.js';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import { createAppStore } from '../../src-renderer/store/appStore.js';
import { indexMessages } from '../../src-renderer/store/slices/chatSlice.js';
import { ConversationRepo } from '../../src-main/store/conversationRepo.js';
import { ProjectStore } from '../../src-main/store/projectStore.js';
import { launchBrowser } from '../../e2e/support/browser.js';
import { conversationDrafts, conversationMessages } from './chatFixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const SIZES = (option('sizes') ?? '1000,2000,5000,10000').split(',').map(Number);
const RUNS = Number(option('runs') ?? 3);
const BROWSER = process.argv.includes('--browser');
const BROWSER_SIZE = Number(option('size') ?? 10_000);
const DIST_ROOT = path.resolve(option('dist') ?? ROOT);
const BASELINE_ROOT = option('baseline-dist');

// ---------------------------------------------------------------------------------------------
// The naive baseline: the chat slice's algorithm before this change, verbatim.

interface NaiveChat {
  messageIds: string[];
  messagesById: Record<string, ChatMessage>;
}

function naiveIndexMessages(messages: readonly ChatMessage[]): NaiveChat {
  let state: NaiveChat = { messageIds: [], messagesById: {} };
  for (const message of messages) state = naiveUpsert(state, message);
  return state;
}

function naiveInsertionIndex(state: NaiveChat, seq: number): number {
  let index = state.messageIds.length;
  while (index > 0 && state.messagesById[state.messageIds[index - 1]!]!.seq > seq) index -= 1;
  return index;
}

function naiveUpsert(state: NaiveChat, message: ChatMessage): NaiveChat {
  const previous = state.messagesById[message.id];
  const messagesById = { ...state.messagesById, [message.id]: message };
  if (previous && previous.seq === message.seq) return { messageIds: state.messageIds, messagesById };
  const others = previous ? state.messageIds.filter((id) => id !== message.id) : state.messageIds;
  const at = naiveInsertionIndex({ messageIds: others, messagesById }, message.seq);
  return { messageIds: [...others.slice(0, at), message.id, ...others.slice(at)], messagesById };
}

function naiveAppendDelta(state: NaiveChat, messageId: string, delta: string, conversationId: string): NaiveChat {
  const existing = state.messagesById[messageId];
  if (existing) {
    return {
      messageIds: state.messageIds,
      messagesById: { ...state.messagesById, [messageId]: { ...existing, text: existing.text + delta } },
    };
  }
  const last = state.messageIds.at(-1);
  const seq = last ? state.messagesById[last]!.seq + 1 : 0;
  return naiveUpsert(state, { id: messageId, conversationId, seq, role: 'assistant', text: delta, createdAt: new Date().toISOString() });
}

// ---------------------------------------------------------------------------------------------
// Store part.

function best(runs: number, fn: () => void): number {
  let min = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

/** One live turn after `n` messages: the person's message, 300 streamed deltas, the answer, a card's 3 statuses. */
type LiveEvent = { kind: 'upsert'; message: ChatMessage } | { kind: 'delta'; id: string; delta: string };
function liveTurn(n: number): LiveEvent[] {
  const at = (seq: number, role: ChatMessage['role'], id: string, text: string): ChatMessage => ({
    id,
    conversationId: 'bench',
    seq,
    role,
    text,
    createdAt: '2025-01-02T00:00:00Z',
  });
  const events: LiveEvent[] = [{ kind: 'upsert', message: at(n, 'user', 'live-user', 'and now the rivers') }];
  for (let i = 0; i < 300; i += 1) events.push({ kind: 'delta', id: 'live-answer', delta: 'word ' });
  events.push({ kind: 'upsert', message: at(n + 1, 'assistant', 'live-answer', 'word '.repeat(300)) });
  for (const status of ['pending', 'running', 'ok'] as const) {
    events.push({
      kind: 'upsert',
      message: {
        ...at(n + 2, 'tool', 'live-card', ''),
        tool: {
          callId: 'c',
          toolId: 'layers.load',
          name: 'layers_load',
          title: 'Load',
          args: {},
          summary: '',
          status,
          durationMs: null,
          result: null,
        },
      },
    });
  }
  return events;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

function storeBench(): void {
  console.log('Chat store: opening a conversation (best of %d; old once above 2,000 messages)\n', RUNS);
  console.log(
    [
      'messages'.padStart(8),
      'old open ms'.padStart(12),
      'new open ms'.padStart(12),
      'speed-up'.padStart(9),
      'old µs/msg'.padStart(11),
      'new µs/msg'.padStart(11),
      'old µs/event'.padStart(13),
      'new µs/event'.padStart(13),
    ].join(' '),
  );
  const rows: { n: number; newPerMessage: number }[] = [];
  // Warm up the new path (JIT) on the largest size, so the first row is not the slowest.
  const warm = conversationMessages(Math.max(...SIZES));
  for (let i = 0; i < 3; i += 1) createAppStore().getState().openConversation({ conversationId: 'bench', messages: warm });
  for (const n of SIZES) {
    const messages = conversationMessages(n);
    let naive: NaiveChat = { messageIds: [], messagesById: {} };
    const oldOpen = best(n > 2000 ? 1 : RUNS, () => void (naive = naiveIndexMessages(messages)));
    const newOpen = best(Math.max(RUNS, 5), () => {
      const store = createAppStore();
      store.getState().openConversation({ conversationId: 'bench', messages });
    });
    // Sanity: both give the same chat.
    const a = naiveIndexMessages(messages.slice(0, 500));
    const b = indexMessages(messages.slice(0, 500));
    if (a.messageIds.join() !== b.messageIds.join()) throw new Error('old and new disagree on the order');

    const events = liveTurn(n);
    const t0 = performance.now();
    for (const e of events) naive = e.kind === 'upsert' ? naiveUpsert(naive, e.message) : naiveAppendDelta(naive, e.id, e.delta, 'bench');
    const oldEvent = ((performance.now() - t0) / events.length) * 1000;

    const store = createAppStore();
    store.getState().openConversation({ conversationId: 'bench', messages });
    const t1 = performance.now();
    for (const e of events) {
      if (e.kind === 'upsert') store.getState().upsertMessage(e.message);
      else store.getState().appendDelta(e.id, e.delta);
    }
    const newEvent = ((performance.now() - t1) / events.length) * 1000;
    if (store.getState().messageIds.length !== n + 3 || naive.messageIds.join() !== store.getState().messageIds.join()) {
      throw new Error('old and new disagree after the live turn');
    }

    rows.push({ n, newPerMessage: (newOpen / n) * 1000 });
    console.log(
      [
        String(n).padStart(8),
        fmt(oldOpen).padStart(12),
        fmt(newOpen).padStart(12),
        `${(oldOpen / newOpen).toFixed(0)}×`.padStart(9),
        ((oldOpen / n) * 1000).toFixed(1).padStart(11),
        ((newOpen / n) * 1000).toFixed(2).padStart(11),
        oldEvent.toFixed(1).padStart(13),
        newEvent.toFixed(2).padStart(13),
      ].join(' '),
    );
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  console.log(
    `\nLinearity: new cost per message ${first.newPerMessage.toFixed(2)} µs at ${first.n} and ${last.newPerMessage.toFixed(2)} µs at ${last.n} ` +
      `(old: grows with the length — quadratic). An event ("old/new µs/event") is one of ${liveTurn(0).length} of a live turn ` +
      'on top of the open conversation: 1 message, 300 deltas, the answer, 3 card statuses.\n',
  );
}

// ---------------------------------------------------------------------------------------------
// Browser part.

const BIG = 'big-conversation';
const SMALL = 'small-conversation';

/** A project whose current conversation is small, with a `size`-message one in the list. */
function seedProject(size: number): string {
  const home = mkdtempSync(path.join(tmpdir(), 'mapwright-bench-chat-'));
  const store = ProjectStore.openInHome(home); // schema and project row, as the app makes them
  const file = store.info.path;
  store.close();
  // The app's own save path (ConversationRepo.upsert), in one transaction instead of one per message.
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const repo = new ConversationRepo(db);
  const t0 = performance.now();
  db.transaction(() => {
    for (const draft of conversationDrafts(size, 'big')) repo.upsert(BIG, draft);
    repo.upsert(SMALL, { id: 'small-1', role: 'user', text: 'A short one' });
    repo.upsert(SMALL, { id: 'small-2', role: 'assistant', text: 'The small conversation.' });
  })();
  const tRead = performance.now();
  const messages = repo.messages(BIG);
  const readMs = performance.now() - tRead;
  const tParse = performance.now();
  events['conversations/opened'].parse({ conversationId: BIG, messages });
  const parseMs = performance.now() - tParse;
  const tJson = performance.now();
  const json = JSON.stringify({ type: 'event', name: 'conversations/opened', payload: { conversationId: BIG, messages } });
  const jsonMs = performance.now() - tJson;
  db.close();
  console.log(
    `Seeded ${size} messages in ${fmt(performance.now() - t0)} ms. Main, per copy sent: read+parse rows ${fmt(readMs)} ms, ` +
      `contract check of the event ${fmt(parseMs)} ms, JSON ${fmt(jsonMs)} ms (${(json.length / 1e6).toFixed(1)} MB).`,
  );
  return home;
}

async function startHost(distRoot: string, home: string) {
  const child = spawn(process.execPath, [path.join(distRoot, 'dist', 'main', 'web-host.js'), '--port', '0'], {
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO', MAPWRIGHT_MODEL_URL: '', MAPWRIGHT_MODEL: '', MAPWRIGHT_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`web host exited with ${code}: ${stderr}`)));
  });
  const url = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(line)?.[1];
  if (!url) throw new Error(`unexpected first line: ${line}`);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Collects long tasks (> 50 ms) from page start; `window.__longTasks`. */
const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/**
 * In the page: resolves once the newest message of the big conversation is on screen and
 * painted. Page code is passed as text: tsx would wrap a function in helpers the page lacks.
 */
const WAIT_SHOWN = `async ({ lastText, since }) => {
  const t0 = since ?? 0;
  const shown = () => {
    const els = document.querySelectorAll('[data-testid="chat-message"]');
    const last = els[els.length - 1];
    return els.length > 2 && last && (last.textContent ?? '').includes(lastText) ? els.length : 0;
  };
  let rendered = shown();
  while (!rendered) {
    await new Promise((r) => requestAnimationFrame(r));
    rendered = shown();
  }
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); // the frame with it painted
  const end = performance.now();
  const tasks = (window.__longTasks ?? []).filter((t) => t.start + t.duration >= t0 && t.start <= end);
  return {
    shownMs: end - t0,
    rendered,
    longest: Math.max(0, ...tasks.map((t) => t.duration)),
    blocked: tasks.reduce((sum, t) => sum + t.duration, 0),
  };
}`;

interface Shown {
  shownMs: number;
  rendered: number;
  longest: number;
  blocked: number;
}

function waitForBigShown(page: Page, lastText: string, since: number | null): Promise<Shown> {
  return page.evaluate(`(${WAIT_SHOWN})(${JSON.stringify({ lastText, since })})`) as Promise<Shown>;
}

/** Clicks `selector` in the page; returns the page's clock just before. */
function clickAt(page: Page, selector: string): Promise<number> {
  return page.evaluate(
    `(() => { const t0 = performance.now(); document.querySelector(${JSON.stringify(selector)}).click(); return t0; })()`,
  ) as Promise<number>;
}

async function browserBench(label: string, distRoot: string): Promise<void> {
  const home = seedProject(BROWSER_SIZE);
  const drafts = conversationDrafts(BROWSER_SIZE, 'big');
  const lastText = [...drafts]
    .reverse()
    .find((d) => d.text.length > 0)!
    .text.slice(0, 40);
  const host = await startHost(distRoot, home);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.addInitScript(LONG_TASKS);
    await page.goto(host.url);
    await page.waitForSelector('[data-testid="map"][data-map-loaded="true"]', { timeout: 60_000 });
    await page.getByTestId('conversation-current-title').waitFor();
    await page.waitForTimeout(1500); // let the map's first tiles settle
    await page.getByTestId('conversation-list-toggle').click();
    const open = `[data-testid="conversation-item"][data-conversation-id="${BIG}"] [data-testid="conversation-open"]`;
    await page.locator(open).waitFor();
    const since = await clickAt(page, open);
    const opened = await waitForBigShown(page, lastText, since);
    console.log(
      `${label}: open a ${BROWSER_SIZE}-message conversation from the list: shown after ${fmt(opened.shownMs)} ms, ` +
        `longest blocking task ${fmt(opened.longest)} ms, long tasks ${fmt(opened.blocked)} ms in all; ${opened.rendered} messages in the DOM`,
    );

    // Reload with the big one current: it comes with project/get.
    await page.reload();
    const loaded = await waitForBigShown(page, lastText, null);
    console.log(
      `${label}: reload with it current (project/get): shown ${fmt(loaded.shownMs)} ms after navigation start, ` +
        `longest task ${fmt(loaded.longest)} ms (map start-up included); ${loaded.rendered} messages in the DOM`,
    );
    if (await page.getByTestId('chat-show-earlier').count()) {
      // Every message stays reachable: show earlier pages until the first one is there.
      const t0 = performance.now();
      let clicks = 0;
      while (await page.getByTestId('chat-show-earlier').count()) {
        await page.getByTestId('chat-show-earlier').click();
        clicks += 1;
      }
      const all = await page.getByTestId('chat-message').count();
      console.log(
        `${label}: "Show earlier messages" ×${clicks} reaches the first message: ${all} in the DOM after ${fmt(performance.now() - t0)} ms`,
      );
    }
  } finally {
    await browser.close();
    await host.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

storeBench();
if (BROWSER) {
  if (BASELINE_ROOT) await browserBench('baseline', path.resolve(BASELINE_ROOT));
  await browserBench(BASELINE_ROOT ? 'this tree' : 'browser', DIST_ROOT);
}

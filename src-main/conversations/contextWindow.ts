import type { ChatMessage } from '../../src-shared/domain/chat.js';

/**
 * The model's window over a conversation, derived from the saved transcript alone: the
 * latest compaction summary plus every message after the seq it covers. Nothing is kept
 * beside the transcript, so the window and the transcript cannot diverge; compaction only
 * ever adds a (marked) summary message, it never removes one.
 */
export interface ConversationWindow {
  /** The latest compaction summary, if older turns were folded. */
  summary: ChatMessage | null;
  /** The messages the model sees in full, in order. */
  messages: ChatMessage[];
}

export function windowOf(transcript: readonly ChatMessage[]): ConversationWindow {
  let summary: ChatMessage | null = null;
  for (const m of transcript) {
    if (m.compaction && (!summary || m.seq > summary.seq)) summary = m;
  }
  const through = summary?.compaction?.throughSeq ?? -Infinity;
  return { summary, messages: transcript.filter((m) => m.seq > through && !m.compaction) };
}

/** Splits messages into turns, each opening with a person's message (a leading remainder is its own turn). */
export function splitTurns(messages: readonly ChatMessage[]): ChatMessage[][] {
  const turns: ChatMessage[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || turns.length === 0) turns.push([m]);
    else turns[turns.length - 1]!.push(m);
  }
  return turns;
}

/**
 * How many leading turns to fold so the rest measures at most `targetChars`. The last turn
 * (the one being answered) is never folded: its calls and results must reach the model whole.
 */
export function turnsToFold(turns: readonly ChatMessage[][], measure: (messages: ChatMessage[]) => number, targetChars: number): number {
  let fold = 0;
  while (fold < turns.length - 1 && measure(turns.slice(fold).flat()) > targetChars) fold += 1;
  return fold;
}

const HEADER =
  'Summary of earlier turns, built by Mapwright from the saved messages (not written by a model; the full messages stay in the transcript):';
const OMITTED = /^\((\d+) older turns? not shown\)$/;

/**
 * A deterministic summary of folded turns, chained onto the previous summary: per turn, the
 * person's request, each tool call with its outcome (ok, error code, rejected by the person,
 * interrupted), and the start of the last answer. Past `maxChars` the oldest turns are
 * dropped and counted, never silently.
 */
export function buildSummary(previous: string | null, folded: readonly ChatMessage[][], maxChars: number): string {
  const { blocks: before, omitted: omittedBefore } = parseSummary(previous);
  const blocks = [...before, ...folded.map(turnBlock).filter((b) => b !== '')];
  let omitted = omittedBefore;
  const render = () => [HEADER, ...(omitted ? [`(${omitted} older turn${omitted === 1 ? '' : 's'} not shown)`] : []), ...blocks].join('\n');
  while (blocks.length > 1 && render().length > maxChars) {
    blocks.shift();
    omitted += 1;
  }
  const text = render();
  return text.length > maxChars ? `${text.slice(0, Math.max(0, maxChars - 1))}…` : text;
}

function parseSummary(text: string | null): { blocks: string[]; omitted: number } {
  if (!text) return { blocks: [], omitted: 0 };
  const lines = text.split('\n').slice(1);
  let omitted = 0;
  const blocks: string[] = [];
  for (const line of lines) {
    const m = OMITTED.exec(line);
    if (m) omitted = Number(m[1]);
    else if (line.startsWith('• ') || blocks.length === 0) blocks.push(line);
    else blocks[blocks.length - 1] += `\n${line}`;
  }
  return { blocks, omitted };
}

function turnBlock(turn: readonly ChatMessage[]): string {
  const lines: string[] = [];
  const person = turn.find((m) => m.role === 'user');
  lines.push(`• Person: "${clip(person?.text ?? '(no message)', 200)}"`);
  const calls = turn.filter((m) => m.role === 'tool' && m.tool).map((m) => callLine(m.tool!));
  if (calls.length) lines.push(`  Calls: ${calls.join('; ')}`);
  const answer = [...turn].reverse().find((m) => m.role === 'assistant' && m.text.trim());
  if (answer) lines.push(`  Answer: "${clip(answer.text, 240)}"`);
  return lines.join('\n');
}

function callLine(card: NonNullable<ChatMessage['tool']>): string {
  const what = `${card.name}${card.summary ? ` (${clip(card.summary, 100)})` : ''}`;
  if (card.status === 'ok') return `${what} → ok`;
  if (card.status === 'rejected') return `${what} → rejected by the person`;
  if (card.result && !card.result.ok) return `${what} → ${card.result.error.code}`;
  return `${what} → ${card.status}`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

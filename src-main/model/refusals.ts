import type { HttpModelError } from './modelClient.js';

/**
 * Telling a refusal from an outage. A refusal disables a feature for the endpoint and is
 * remembered; an outage (401, 403, 429, 5xx, a network error) disables nothing. Only a
 * status that means "bad request" counts, and only with a marker in the body naming the
 * feature: a 400 about `max_tokens` or a missing model refuses nothing of ours.
 */
export type Refusal = 'tools' | 'stream' | 'stream-usage' | 'reasoning-replay' | 'reasoning-replay-refused';

/** What the refused request carried; a refusal of something not sent is no refusal. */
export interface SentFeatures {
  tools: boolean;
  stream: boolean;
  streamUsage: boolean;
  reasoningReplay: boolean;
}

const REFUSAL_STATUSES = new Set([400, 422, 501]);

const TOOLS_MARKERS = [
  /does not support tools/i, // Ollama
  /\btools? (?:are|is) not supported/i,
  /\btool(?:s| use| calling| calls)? (?:is |are )?not (?:supported|enabled|available)/i,
  /function calling is not (?:supported|enabled)/i,
  /unrecognized request arguments? supplied:[^.]*\btools\b/i, // Azure / older OpenAI
  /unsupported parameter:?\s*['"`]?tools\b/i,
  /tool choice requires --enable-auto-tool-choice/i, // vLLM started without it
  /"loc"\s*:\s*\[\s*"body"\s*,\s*"tools"/i, // pydantic: extra field `tools`
  /\btools\b[^.]{0,40}\b(?:not permitted|not allowed|unknown field|unexpected)/i,
];

const STREAM_MARKERS = [
  /['"`]stream['"`] does not support true/i, // OpenAI o1
  /unsupported value:?\s*['"`]stream['"`]/i,
  /\bstream(?:ing)? (?:is |mode is )?not (?:supported|enabled|available)/i,
  /does not support stream(?:ing)?\b/i,
  /unrecognized request arguments? supplied:[^.]*\bstream\b(?!_)/i,
  /"loc"\s*:\s*\[\s*"body"\s*,\s*"stream"\s*\]/i,
];

const STREAM_USAGE_MARKERS = [
  /\bstream_options\b[^.]{0,60}\b(?:unrecognized|not supported|not permitted|not allowed|unknown|unexpected|extra)/i,
  /(?:unrecognized|unknown|unsupported|extra)[^.]{0,60}\bstream_options\b/i,
];

const REPLAY_MARKERS = [
  /\breasoning_content\b[^.]{0,80}\b(?:missing|required|must)/i,
  /(?:missing|required|must)[^.]{0,80}\breasoning_content\b/i,
];

export function refusalOf(error: HttpModelError, sent: SentFeatures): Refusal | null {
  if (error.status === null || !REFUSAL_STATUSES.has(error.status)) return null;
  const body = error.bodyText;
  // The most precise marker first: OpenAI-style bodies name the parameter.
  const param = paramOf(body);
  if (param === 'tools' || param === 'tool_choice') return sent.tools ? 'tools' : null;
  if (param === 'stream') return sent.stream ? 'stream' : null;
  if (param === 'stream_options') return sent.streamUsage ? 'stream-usage' : null;
  if (param !== null && param !== 'messages') return null;
  if (sent.streamUsage && STREAM_USAGE_MARKERS.some((m) => m.test(body))) return 'stream-usage';
  if (sent.tools && TOOLS_MARKERS.some((m) => m.test(body))) return 'tools';
  if (sent.stream && STREAM_MARKERS.some((m) => m.test(body))) return 'stream';
  // DeepSeek: thinking mode with tools wants the reasoning back; older reasoners refuse it.
  if (!sent.reasoningReplay && REPLAY_MARKERS.some((m) => m.test(body))) return 'reasoning-replay';
  if (sent.reasoningReplay && /\breasoning_content\b/i.test(body)) return 'reasoning-replay-refused';
  return null;
}

function paramOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { param?: unknown } };
    const param = parsed?.error?.param;
    return typeof param === 'string' && param !== '' ? param : null;
  } catch {
    return null;
  }
}

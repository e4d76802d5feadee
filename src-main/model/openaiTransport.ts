import { createChatStreamFolder, type ChatStreamFolder } from './chatStreamFolder.js';
import { turnFromCompletion } from './chatTurnAccumulator.js';
import { getJson, postJson, pumpStream, readText, readUnlessStopped } from './httpWire.js';
import { ModelError, type ModelTurn, type TurnRequest } from './modelClient.js';
import { buildChatRequestBody, chatCompletionsUrl, modelsUrl } from './openaiWire.js';
import { wireErrorOf } from './wireErrors.js';
import type { WireAttempt, WireResult, WireSink, WireTransport } from './wireTransport.js';

export interface OpenAiTransportOptions {
  /** e.g. `http://127.0.0.1:1234/v1`; a full `…/chat/completions` URL is accepted too. */
  baseUrl: string;
  model: string;
  /** Null or empty for local servers that need none. Never logged. */
  apiKey?: string | null;
  /** Extra headers a provider wants (OpenRouter's `HTTP-Referer`/`X-Title`). */
  headers?: Record<string, string>;
}

/** OpenAI Chat Completions over HTTP (OpenAI, Ollama, LM Studio, llama.cpp, vLLM, DeepSeek, OpenRouter…). */
export function createOpenAiTransport(options: OpenAiTransportOptions): WireTransport {
  const url = chatCompletionsUrl(options.baseUrl);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'text/event-stream, application/json',
    ...options.headers,
  };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;

  return {
    wire: 'openai',
    baseUrl: options.baseUrl,
    model: options.model,
    async send(request: TurnRequest, attempt: WireAttempt, sink: WireSink, signal: AbortSignal): Promise<WireResult> {
      const body = buildChatRequestBody(options.model, request, attempt);
      const response = await postJson(url, headers, body, signal, options.apiKey ?? null);
      return readUnlessStopped(signal, async () => {
        const contentType = response.headers.get('content-type') ?? '';
        return contentType.includes('text/event-stream')
          ? await readStream(response, sink, signal)
          : readWholeBody(await readText(response, signal), contentType, url, sink, attempt.stream);
      });
    },
    async listModels(signal) {
      const listed = await getJson(
        modelsUrl(options.baseUrl),
        options.apiKey ? { Authorization: headers.Authorization! } : {},
        signal,
        options.apiKey ?? null,
      );
      return modelIdsOf(listed);
    },
  };
}

async function readStream(response: Response, sink: WireSink, signal: AbortSignal): Promise<WireResult> {
  const stream = sinkStream(sink);
  await pumpStream(response, stream.folder, signal);
  return stream.result();
}

/** A chat stream folder that hands its deltas to `sink`; `result()` ends it and says whether reasoning came. */
function sinkStream(sink: WireSink): { folder: ChatStreamFolder; result(): WireResult } {
  let sawReasoning = false;
  const folder = createChatStreamFolder(
    (delta) => sink.content(delta),
    (delta) => {
      sawReasoning = true;
      sink.reasoning(delta);
    },
  );
  return {
    folder,
    result: () => ({ turn: folder.end(), streamIgnored: false, reasoningShape: sawReasoning ? 'reasoning-field' : 'none' }),
  };
}

/**
 * A whole `chat.completion` body: asked for (no stream), or the answer of a server that
 * ignored `stream:true` — which the caller remembers as a refusal to stream.
 */
function readWholeBody(text: string, contentType: string, url: string, sink: WireSink, askedToStream: boolean): WireResult {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new ModelError(`The model endpoint at ${url} answered with malformed JSON.`);
    }
    const wire = wireErrorOf(parsed);
    if (wire) throw new ModelError(wire.message, wire.code);
    const turn: ModelTurn = turnFromCompletion(parsed);
    if (turn.reasoning) sink.reasoning(turn.reasoning);
    if (turn.text !== '') sink.content(turn.text);
    return { turn, streamIgnored: askedToStream, reasoningShape: turn.reasoning ? 'reasoning-field' : 'none' };
  }
  if (trimmed.startsWith('data:') || trimmed.startsWith(':') || trimmed.startsWith('event:')) {
    // SSE sent under the wrong content type (some proxies rewrite it).
    const stream = sinkStream(sink);
    stream.folder.feed(text);
    return stream.result();
  }
  if (trimmed === '') throw new ModelError(`The model endpoint at ${url} answered with an empty response.`);
  throw new ModelError(
    `The model endpoint at ${url} answered with ${contentType || 'an unknown content type'}, not a chat completion. ` +
      'Check the URL (OpenAI-compatible servers usually end in /v1).',
  );
}

/** `{data:[{id}]}` (OpenAI, Anthropic, most servers) or `{models:[{name}]}` (Ollama native). */
export function modelIdsOf(listed: unknown): string[] {
  const root = typeof listed === 'object' && listed !== null ? (listed as Record<string, unknown>) : {};
  const items = Array.isArray(root.data) ? root.data : Array.isArray(root.models) ? root.models : [];
  const ids = items
    .map((item) => {
      if (typeof item === 'string') return item;
      if (typeof item !== 'object' || item === null) return null;
      const record = item as Record<string, unknown>;
      const id = record.id ?? record.name ?? record.model;
      return typeof id === 'string' ? id : null;
    })
    .filter((id): id is string => id !== null && id !== '');
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

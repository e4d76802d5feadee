import { createChatStreamFolder, streamEndedEarly } from './chatStreamFolder.js';
import { turnFromCompletion } from './chatTurnAccumulator.js';
import {
  ModelError,
  type ModelClient,
  type ModelTurn,
  type StreamCallbacks,
  type TurnRequest,
} from './modelClient.js';
import { buildChatRequestBody, chatCompletionsUrl } from './openaiWire.js';
import { httpErrorMessage, wireErrorOf } from './wireErrors.js';

export interface OpenAiChatClientOptions {
  /** e.g. `http://127.0.0.1:1234/v1`; a full `…/chat/completions` URL is accepted too. */
  baseUrl: string;
  model: string;
  /** Null or empty for local servers that need none. Never logged. */
  apiKey?: string | null;
}

/** The OpenAI-compatible Chat Completions adapter (OpenAI, Ollama, LM Studio, llama.cpp, vLLM…). */
export function createOpenAiChatClient(options: OpenAiChatClientOptions): ModelClient {
  const url = chatCompletionsUrl(options.baseUrl);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'text/event-stream, application/json',
  };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;

  return {
    model: options.model,
    async streamTurn(request: TurnRequest, callbacks: StreamCallbacks): Promise<ModelTurn> {
      const { signal } = callbacks;
      if (signal.aborted) throw stopped();
      const body = JSON.stringify(buildChatRequestBody(options.model, request));

      let response: Response;
      try {
        response = await fetch(url, { method: 'POST', headers, body, signal });
      } catch (error) {
        if (signal.aborted) throw stopped();
        throw new ModelError(`The model endpoint could not be reached at ${url} (${describeCause(error)}).`);
      }

      try {
        if (!response.ok) {
          const text = await readText(response);
          throw new ModelError(httpErrorMessage(text, response.status, response.statusText), response.status);
        }
        const contentType = response.headers.get('content-type') ?? '';
        const turn = contentType.includes('text/event-stream')
          ? await readStream(response, callbacks)
          : readWholeBody(await readText(response), contentType, url, callbacks);
        // Stop pressed while the last bytes were being folded still means Stop.
        if (signal.aborted) throw stopped();
        return turn;
      } catch (error) {
        if (signal.aborted) throw stopped();
        // Transport failures are already ModelErrors; anything else (a throwing
        // onTextDelta) is a bug of the caller and should surface as itself.
        throw error;
      }
    },
  };
}

async function readStream(response: Response, callbacks: StreamCallbacks): Promise<ModelTurn> {
  const folder = createChatStreamFolder((delta) => callbacks.onTextDelta(delta));
  if (!response.body) return folder.end();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        // The connection broke. A turn that already finished is still a whole turn.
        if (!callbacks.signal.aborted && folder.finished) return folder.end();
        throw brokenStream(error);
      }
      if (next.done) break;
      folder.feed(decoder.decode(next.value, { stream: true }));
      if (folder.done) break;
    }
    folder.feed(decoder.decode());
    return folder.end();
  } finally {
    // Stop reading after `[DONE]` or a failure; servers may keep the socket open.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * A server that ignored `stream:true` answers one JSON completion; the loop still gets a
 * turn, and the text is forwarded in one piece so the chat shows it.
 */
function readWholeBody(text: string, contentType: string, url: string, callbacks: StreamCallbacks): ModelTurn {
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
    const turn = turnFromCompletion(parsed);
    if (turn.text !== '') callbacks.onTextDelta(turn.text);
    return turn;
  }
  if (trimmed.startsWith('data:') || trimmed.startsWith(':') || trimmed.startsWith('event:')) {
    // SSE sent under the wrong content type (some proxies rewrite it).
    const folder = createChatStreamFolder((delta) => callbacks.onTextDelta(delta));
    folder.feed(text);
    return folder.end();
  }
  if (trimmed === '') throw new ModelError(`The model endpoint at ${url} answered with an empty response.`);
  throw new ModelError(
    `The model endpoint at ${url} answered with ${contentType || 'an unknown content type'}, not a chat completion. ` +
      'Check the URL (OpenAI-compatible servers usually end in /v1).',
  );
}

/** A body read that fails midway is the same outage as a stream cut short. */
async function readText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw brokenStream(error);
  }
}

function brokenStream(error: unknown): ModelError {
  return streamEndedEarly(`the connection closed: ${describeCause(error)}`);
}

function stopped(): ModelError {
  return new ModelError('Stopped', null, true);
}

/** The useful part of a fetch failure: undici hides the system error code in `cause`. */
function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause && typeof cause === 'object') {
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'string') return code;
      const message = (cause as { message?: unknown }).message;
      if (typeof message === 'string' && message !== '') return message;
    }
    return error.message;
  }
  return String(error);
}

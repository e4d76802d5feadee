import { createAnthropicStreamFolder, turnFromAnthropicMessage, type AnthropicDeltas } from './anthropicStreamFolder.js';
import { ANTHROPIC_VERSION, anthropicModelsUrl, buildAnthropicRequestBody, messagesUrl } from './anthropicWire.js';
import { isRecord } from './chatTurnAccumulator.js';
import { getJson, postJson, pumpStream, readText, readUnlessStopped } from './httpWire.js';
import { ModelError, type TurnRequest } from './modelClient.js';
import { modelIdsOf } from './openaiTransport.js';
import type { WireAttempt, WireResult, WireSink, WireTransport } from './wireTransport.js';

export interface AnthropicTransportOptions {
  /** `https://api.anthropic.com`, `…/v1` or the full `…/v1/messages`. */
  baseUrl: string;
  model: string;
  apiKey?: string | null;
  /** Extended thinking budget in tokens; null keeps thinking off. */
  thinkingBudget?: number | null;
}

/** Anthropic Messages over HTTP. */
export function createAnthropicTransport(options: AnthropicTransportOptions): WireTransport {
  const url = messagesUrl(options.baseUrl);
  const auth: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
  if (options.apiKey) auth['x-api-key'] = options.apiKey;
  const headers = { ...auth, 'Content-Type': 'application/json', Accept: 'text/event-stream, application/json' };

  return {
    wire: 'anthropic',
    baseUrl: options.baseUrl,
    model: options.model,
    async send(request: TurnRequest, attempt: WireAttempt, sink: WireSink, signal: AbortSignal): Promise<WireResult> {
      const body = buildAnthropicRequestBody(options.model, request, {
        stream: attempt.stream,
        thinkingBudget: options.thinkingBudget ?? null,
      });
      const response = await postJson(url, headers, body, signal, options.apiKey ?? null);
      const deltas: AnthropicDeltas = { text: (d) => sink.content(d), thinking: (d) => sink.reasoning(d) };
      return readUnlessStopped(signal, async () => {
        const contentType = response.headers.get('content-type') ?? '';
        if (contentType.includes('text/event-stream')) {
          const folder = createAnthropicStreamFolder(deltas);
          await pumpStream(response, folder, signal);
          const turn = folder.end();
          return { turn, streamIgnored: false, reasoningShape: turn.thinking?.length ? 'anthropic-thinking' : 'none' };
        }
        const text = await readText(response, signal);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new ModelError(
            `The model endpoint at ${url} did not answer with a Message (${contentType || 'no content type'}). Check the URL.`,
          );
        }
        if (isRecord(parsed) && parsed.type === 'error') {
          const error = isRecord(parsed.error) ? parsed.error : {};
          throw new ModelError(typeof error.message === 'string' ? error.message : 'The model server reported an error.');
        }
        const turn = turnFromAnthropicMessage(parsed, deltas);
        return { turn, streamIgnored: attempt.stream, reasoningShape: turn.thinking?.length ? 'anthropic-thinking' : 'none' };
      });
    },
    async listModels(signal) {
      return modelIdsOf(await getJson(anthropicModelsUrl(options.baseUrl), auth, signal, options.apiKey ?? null));
    },
  };
}

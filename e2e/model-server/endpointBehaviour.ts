/**
 * Quirks of real endpoints the scripted server can put on, with the refusal bodies those
 * endpoints send (wording from ../shared/fixtures/model-streams: Ollama's "does not support
 * tools", OpenAI o1's "'stream' does not support true"). Node built-ins only.
 */
import type { ReceivedRequest } from './scriptedReply.js';

export type Wire = 'openai' | 'anthropic';

export interface EndpointBehaviour {
  /** Answer 400 "does not support tools" to any request carrying `tools`. */
  refuseTools?: boolean;
  /** Answer 400 "'stream' does not support true" to any request with `stream:true`. */
  refuseStream?: boolean;
  /** Answer `stream_options` with 400 "Unrecognized request argument supplied: stream_options". */
  refuseStreamOptions?: boolean;
  /** Answer one JSON body to every request, streamed or not. */
  ignoreStream?: boolean;
  /** Answer 401 unless this key comes (`Authorization: Bearer` or `x-api-key`). */
  requireKey?: string;
}

export function refusalBody(wire: Wire, behaviour: EndpointBehaviour, body: ReceivedRequest): object | null {
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (behaviour.refuseTools && hasTools) {
    const message = `registry.ollama.ai/library/${String(body.model ?? 'scripted')} does not support tools`;
    return wire === 'anthropic'
      ? { type: 'error', error: { type: 'invalid_request_error', message: `tools: ${message}` } }
      : { error: { message, type: 'api_error', param: null, code: null } };
  }
  if (behaviour.refuseStream && body.stream === true) {
    const message = "Unsupported value: 'stream' does not support true with this model. Supported values are: false.";
    return wire === 'anthropic'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : { error: { message, type: 'invalid_request_error', param: 'stream', code: 'unsupported_value' } };
  }
  if (behaviour.refuseStreamOptions && body.stream_options !== undefined) {
    return {
      error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error', param: null, code: null },
    };
  }
  return null;
}

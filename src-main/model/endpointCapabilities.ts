import { createHash } from 'node:crypto';

/**
 * What an endpoint was found to accept, remembered so that a refusal is paid for once.
 * Kept per endpoint hash: the wire, the URL and the model, because support differs per
 * model behind one server (Ollama answers "does not support tools" for some models only).
 * The URL itself is not the key, so the store need not hold it.
 */
export interface EndpointCapabilities {
  /** `refused`: the endpoint rejected the `tools` parameter; calls go through the JSON protocol. */
  tools: 'unknown' | 'native' | 'refused';
  /** `refused`: it rejected `stream:true`, or ignored it and answered one JSON body. */
  streaming: 'unknown' | 'ok' | 'refused';
  /** `stream_options.include_usage`, which a few servers reject. */
  streamUsage: 'unknown' | 'ok' | 'refused';
  /** How this endpoint sends reasoning, as last seen. */
  reasoning: ReasoningShape;
  /** It wants `reasoning_content` back on tool-call turns (DeepSeek thinking mode with tools). */
  reasoningReplay: boolean;
}

export type ReasoningShape = 'unknown' | 'none' | 'think-tags' | 'reasoning-field' | 'anthropic-thinking';

export const UNKNOWN_CAPABILITIES: EndpointCapabilities = Object.freeze({
  tools: 'unknown',
  streaming: 'unknown',
  streamUsage: 'unknown',
  reasoning: 'unknown',
  reasoningReplay: false,
});

export interface CapabilityStore {
  get(endpoint: string): EndpointCapabilities | null;
  set(endpoint: string, capabilities: EndpointCapabilities): void;
  forget(endpoint: string): void;
}

/** `wire`, URL (normalised: case of scheme and host, trailing slashes, the path suffix) and model. */
export function endpointHash(wire: string, url: string, model: string): string {
  return createHash('sha256')
    .update(`${wire}\n${normaliseEndpointUrl(url)}\n${model.trim()}`)
    .digest('hex');
}

export function normaliseEndpointUrl(url: string): string {
  let text = url.trim().replace(/\/+$/, '');
  text = text.replace(/\/(chat\/completions|messages)$/i, '');
  try {
    const parsed = new URL(text);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return text;
  }
}

/** For tests and for a client nobody asked to remember anything for. */
export function memoryCapabilityStore(): CapabilityStore & { readonly size: number } {
  const map = new Map<string, EndpointCapabilities>();
  return {
    get: (endpoint) => map.get(endpoint) ?? null,
    set: (endpoint, capabilities) => void map.set(endpoint, { ...capabilities }),
    forget: (endpoint) => void map.delete(endpoint),
    get size() {
      return map.size;
    },
  };
}

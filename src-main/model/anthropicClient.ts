import { createAdaptiveModelClient, type AdaptiveClientOptions, type AdaptiveModelClient } from './adaptiveModelClient.js';
import { createAnthropicTransport, type AnthropicTransportOptions } from './anthropicTransport.js';
import { memoryCapabilityStore } from './endpointCapabilities.js';

export interface AnthropicClientOptions extends AnthropicTransportOptions, Partial<Omit<AdaptiveClientOptions, 'transport'>> {}

/** The Anthropic Messages client: the transport plus the adaptive rules. */
export function createAnthropicClient(options: AnthropicClientOptions): AdaptiveModelClient {
  const budget = options.thinkingBudget ?? null;
  return createAdaptiveModelClient({
    ...options,
    transport: createAnthropicTransport(options),
    capabilities: options.capabilities ?? memoryCapabilityStore(),
    // Thinking on or off changes what may be replayed: part of who answers.
    identityExtra: options.identityExtra ?? (budget ? `thinking:${budget}` : ''),
  });
}

import { createAdaptiveModelClient, type AdaptiveClientOptions, type AdaptiveModelClient } from './adaptiveModelClient.js';
import { memoryCapabilityStore } from './endpointCapabilities.js';
import { createOpenAiTransport, type OpenAiTransportOptions } from './openaiTransport.js';

export interface OpenAiChatClientOptions extends OpenAiTransportOptions, Partial<Omit<AdaptiveClientOptions, 'transport'>> {}

/**
 * The OpenAI-compatible Chat Completions client (OpenAI, Ollama, LM Studio, llama.cpp,
 * vLLM, DeepSeek, OpenRouter…): the transport plus the adaptive rules. Without a store,
 * what it learns about the endpoint lasts as long as the client.
 */
export function createOpenAiChatClient(options: OpenAiChatClientOptions): AdaptiveModelClient {
  return createAdaptiveModelClient({
    ...options,
    transport: createOpenAiTransport(options),
    capabilities: options.capabilities ?? memoryCapabilityStore(),
  });
}

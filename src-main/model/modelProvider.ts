import { presetOf, type ModelProviderId } from '../../src-shared/domain/modelPresets.js';
import type { AdaptiveEvent, AdaptiveModelClient } from './adaptiveModelClient.js';
import { createAnthropicClient } from './anthropicClient.js';
import type { CapabilityStore } from './endpointCapabilities.js';
import { MODEL_CONFIG_HELP, modelEnvActive, readModelConfig, type ModelWireName } from './modelConfig.js';
import { createOpenAiChatClient } from './openaiChatClient.js';
import type { RetryPolicy } from './retryPolicy.js';

/**
 * The model the agent gets for a run. Settings can change while the app runs: the provider
 * builds a client for the current configuration and keeps it until that changes, so a run
 * keeps the client it started with and the next run gets the new one.
 */
export interface EndpointConfig {
  provider: ModelProviderId | 'env';
  wire: ModelWireName;
  url: string;
  model: string;
  apiKey: string | null;
  thinkingBudget: number | null;
}

export type EffectiveConfig = { ok: true; source: 'env' | 'settings'; config: EndpointConfig } | { ok: false; help: string };

export interface ModelProvider {
  /** The client for the current configuration; null when none is configured. */
  current(): AdaptiveModelClient | null;
  effective(): EffectiveConfig;
  /** For the status bar and `app/info`. */
  status(): { configured: boolean; name: string | null; help: string | null };
  /** A client for any endpoint (the connection test), sharing what is remembered per endpoint. */
  clientFor(config: EndpointConfig, extra?: { onEvent?: (event: AdaptiveEvent) => void; retry?: RetryPolicy }): AdaptiveModelClient;
  /** Settings were saved: build the client again on next use. */
  reload(): void;
}

export interface ModelProviderDeps {
  env?: Record<string, string | undefined>;
  capabilities: CapabilityStore;
  /** The saved endpoint (with its key resolved), or null. */
  savedConfig(): EndpointConfig | null;
}

export function createModelProvider(deps: ModelProviderDeps): ModelProvider {
  const env = deps.env ?? process.env;
  let cached: { signature: string; client: AdaptiveModelClient } | null = null;

  function effective(): EffectiveConfig {
    if (modelEnvActive(env)) {
      const result = readModelConfig(env);
      if (!result.ok) return result;
      const { wire, baseUrl, model, apiKey } = result.config;
      return { ok: true, source: 'env', config: { provider: 'env', wire, url: baseUrl, model, apiKey, thinkingBudget: null } };
    }
    const saved = deps.savedConfig();
    if (!saved) return { ok: false, help: MODEL_CONFIG_HELP };
    if (saved.apiKey === null && saved.provider !== 'env' && presetOf(saved.provider).needsKey) {
      return { ok: false, help: `${presetOf(saved.provider).label} needs an API key: add one in Settings.` };
    }
    return { ok: true, source: 'settings', config: saved };
  }

  function clientFor(
    config: EndpointConfig,
    extra: { onEvent?: (event: AdaptiveEvent) => void; retry?: RetryPolicy } = {},
  ): AdaptiveModelClient {
    const common = { baseUrl: config.url, model: config.model, apiKey: config.apiKey, capabilities: deps.capabilities, ...extra };
    if (config.wire === 'anthropic') return createAnthropicClient({ ...common, thinkingBudget: config.thinkingBudget });
    // OpenRouter ranks apps by these; harmless elsewhere, so only sent there.
    const headers = config.provider === 'openrouter' ? { 'X-Title': 'Mapwright', 'HTTP-Referer': 'https://mapwright.app' } : undefined;
    return createOpenAiChatClient({ ...common, headers });
  }

  return {
    effective,
    clientFor,
    current() {
      const found = effective();
      if (!found.ok) return null;
      // A new key, URL, model or budget makes a new client (the signature stays in memory).
      const signature = JSON.stringify({ ...found.config, source: found.source });
      if (!cached || cached.signature !== signature) cached = { signature, client: clientFor(found.config) };
      return cached.client;
    },
    status() {
      const found = effective();
      return found.ok ? { configured: true, name: found.config.model, help: null } : { configured: false, name: null, help: found.help };
    },
    reload() {
      cached = null;
    },
  };
}

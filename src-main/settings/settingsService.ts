import type { ConnectionReport, ModelSettingsDraft, ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';
import { MODEL_PROVIDER_IDS, type ModelProviderId } from '../../src-shared/domain/modelPresets.js';
import type { AdaptiveEvent } from '../model/adaptiveModelClient.js';
import { MODEL_ENV_VARIABLES, modelEnvActive } from '../model/modelConfig.js';
import { ModelError, type TurnRequest } from '../model/modelClient.js';
import type { EndpointConfig, ModelProvider } from '../model/modelProvider.js';
import type { AppSettingsDb } from './appSettingsDb.js';
import type { SecretStore } from './secretStore.js';

/**
 * The settings panel's side in main: the saved endpoint, keys bound to the origin they were
 * typed for, and the connection test. Keys go in, never out.
 */
export interface SavedModelSettings {
  provider: ModelProviderId;
  wire: 'openai' | 'anthropic';
  url: string;
  model: string;
  thinkingBudget: number | null;
}

interface StoredKey {
  key: string;
  /** `scheme://host:port` the key was typed for; it is sent nowhere else. */
  origin: string;
}

const SETTINGS_KEY = 'model';
const keyName = (provider: ModelProviderId) => `model-key:${provider}`;

/** The probe of "test connection": tiny, with one tool that must never be called. */
export const PROBE_REQUEST: TurnRequest = {
  messages: [
    { role: 'system', content: 'This is a connection test from Mapwright. Reply with the single word OK. Do not call any tool.' },
    { role: 'user', content: 'ping' },
  ],
  tools: [
    {
      name: 'mapwright_probe',
      description: 'Does nothing; offered only to check that tools are accepted. Never call it.',
      parameters: { type: 'object', properties: {} },
    },
  ],
};

export function originOf(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return '';
  }
}

export interface SettingsServiceDeps {
  db: AppSettingsDb;
  secrets: SecretStore;
  env?: Record<string, string | undefined>;
}

export function createSettingsStore(deps: SettingsServiceDeps) {
  const env = deps.env ?? process.env;

  function saved(): SavedModelSettings | null {
    return deps.db.get<SavedModelSettings>(SETTINGS_KEY);
  }

  function storedKey(provider: ModelProviderId): StoredKey | null {
    const raw = deps.secrets.get(keyName(provider));
    if (raw === null) return null;
    try {
      const parsed = JSON.parse(raw) as StoredKey;
      return typeof parsed.key === 'string' && typeof parsed.origin === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }

  /** The key to use for `url`: one typed now, else the saved one if it was typed for this origin. */
  function keyFor(provider: ModelProviderId, url: string, typed?: string): string | null {
    if (typed) return typed;
    const stored = storedKey(provider);
    return stored && stored.origin === originOf(url) ? stored.key : null;
  }

  function savedConfig(): EndpointConfig | null {
    const s = saved();
    if (!s) return null;
    return { ...s, apiKey: keyFor(s.provider, s.url) };
  }

  function save(draft: ModelSettingsDraft & { clearKey: boolean }): void {
    const { apiKey, clearKey, ...settings } = draft;
    const stored = storedKey(draft.provider);
    if (clearKey) deps.secrets.set(keyName(draft.provider), null);
    else if (apiKey)
      deps.secrets.set(keyName(draft.provider), JSON.stringify({ key: apiKey, origin: originOf(draft.url) } satisfies StoredKey));
    // A key belongs to the address it was typed for: moving the address drops it.
    else if (stored && stored.origin !== originOf(draft.url)) deps.secrets.set(keyName(draft.provider), null);
    deps.db.set(SETTINGS_KEY, settings satisfies SavedModelSettings);
  }

  function view(status: ModelSettingsView['status']): ModelSettingsView {
    const variables = MODEL_ENV_VARIABLES.filter((name) => (env[name]?.trim() ?? '') !== '');
    const active = modelEnvActive(env);
    return {
      saved: saved(),
      keys: MODEL_PROVIDER_IDS.flatMap((provider) => {
        const stored = storedKey(provider);
        return stored ? [{ provider, origin: stored.origin }] : [];
      }),
      keyStorage: { kind: deps.secrets.kind, note: deps.secrets.note },
      envOverride: {
        active,
        variables,
        summary: active ? `${env.MAPWRIGHT_MODEL?.trim() || '?'} at ${env.MAPWRIGHT_MODEL_URL?.trim() || '?'}` : null,
      },
      status,
    };
  }

  return { saved, savedConfig, keyFor, save, view };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

/**
 * Sends the probe to the draft's endpoint, forgetting what was remembered for it first, and
 * reports what it accepted. An outage is reported as what it is and refuses nothing.
 */
export async function testConnection(provider: ModelProvider, config: EndpointConfig, timeoutMs = 45_000): Promise<ConnectionReport> {
  const notes: string[] = [];
  const onEvent = (event: AdaptiveEvent) => {
    if (event.kind === 'refused') notes.push(`${REFUSAL_LABELS[event.feature]} (HTTP ${event.status}: ${event.message})`);
    else notes.push(`HTTP ${event.status ?? '?'}: retried after ${Math.round(event.delayMs / 100) / 10} s`);
  };
  const client = provider.clientFor(config, { onEvent, retry: { maxRetries: 1, baseDelayMs: 500, maxDelayMs: 5000 } });
  client.forgetCapabilities();
  const started = Date.now();
  let failure: ModelError | null = null;
  try {
    await client.streamTurn(PROBE_REQUEST, {
      signal: AbortSignal.timeout(timeoutMs),
      onTextDelta: () => undefined,
      onReasoningDelta: () => undefined,
    });
  } catch (error) {
    failure = error instanceof ModelError ? error : new ModelError(error instanceof Error ? error.message : String(error));
  }
  const latencyMs = failure ? null : Date.now() - started;
  const caps = client.capabilities();
  const models = await client.listModels(AbortSignal.timeout(10_000)).catch(() => null);
  const detected: ConnectionReport['detected'] = {
    tools: caps.tools === 'native' ? 'native' : caps.tools === 'refused' ? 'json' : 'unknown',
    streaming: caps.streaming === 'ok' ? 'yes' : caps.streaming === 'refused' ? 'no' : 'unknown',
    reasoning: caps.reasoning,
  };
  if (failure) {
    return { ok: false, message: failureMessage(failure, config), detected, notes, models, latencyMs, status: failure.status };
  }
  return { ok: true, message: `Connected: ${config.model} answered in ${latencyMs} ms.`, detected, notes, models, latencyMs, status: null };
}

const REFUSAL_LABELS: Record<string, string> = {
  tools: 'Native tool calls refused: tools go in the prompt as JSON',
  stream: 'Streaming refused: plain requests',
  'stream-usage': 'stream_options refused: usage not requested',
  'reasoning-replay': 'The endpoint wants reasoning back on tool-call turns',
  'reasoning-replay-refused': 'The endpoint refuses reasoning sent back',
};

function failureMessage(error: ModelError, config: EndpointConfig): string {
  const status = error.status;
  if (error.aborted) return `No answer from ${config.url} in time.`;
  if (status === 401 || status === 403) return `The endpoint refused the key (HTTP ${status}): ${error.message}`;
  if (status === 404) return `Not found (HTTP 404): ${error.message}. Check the URL and the model name.`;
  if (status === 429) return `Rate limited (HTTP 429): ${error.message}`;
  if (status !== null && status >= 500) return `The server failed (HTTP ${status}): ${error.message}`;
  return status !== null ? `HTTP ${status}: ${error.message}` : error.message;
}

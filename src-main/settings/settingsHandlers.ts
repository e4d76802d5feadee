import type { Emit, MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { settingsMethods } from '../../src-shared/bridge/settingsContract.js';
import type { ModelProvider } from '../model/modelProvider.js';
import type { DisplaySettingsStore } from './displaySettings.js';
import { runScorecard } from '../model/scorecard/runScorecard.js';
import type { ScorecardStore } from './scorecardStore.js';
import { testConnection, type SettingsStore } from './settingsService.js';

export type SettingsHandlers = Pick<MethodHandlers, keyof typeof settingsMethods>;

/** The settings methods of the bridge; params arrive parsed by the contract. */
export function createSettingsHandlers(deps: {
  store: SettingsStore;
  provider: ModelProvider;
  emit: Emit;
  display: DisplaySettingsStore;
  scorecards: ScorecardStore;
}): SettingsHandlers {
  const { store, provider, emit, display, scorecards } = deps;
  return {
    'settings/get-display': async () => display.get(),
    'settings/set-display': async (patch) => {
      const next = display.set(patch);
      emit('settings/display-changed', next);
      return next;
    },
    'settings/get': async () => store.view(provider.status()),
    'settings/save': async (draft) => {
      store.save(draft);
      provider.reload();
      const status = provider.status();
      emit('settings/changed', status);
      return store.view(status);
    },
    'settings/test-connection': async (draft) =>
      testConnection(provider, {
        provider: draft.provider,
        wire: draft.wire,
        url: draft.url,
        model: draft.model,
        apiKey: store.keyFor(draft.provider, draft.url, draft.apiKey),
        thinkingBudget: draft.thinkingBudget,
      }),
    'settings/run-scorecard': async (draft) => {
      const endpoint = { provider: draft.provider, wire: draft.wire, url: draft.url, model: draft.model };
      const client = provider.clientFor(
        { ...endpoint, apiKey: store.keyFor(draft.provider, draft.url, draft.apiKey), thinkingBudget: draft.thinkingBudget },
        { retry: { maxRetries: 1, baseDelayMs: 500, maxDelayMs: 5000 } },
      );
      // Graded as the endpoint is now, not as it was once found to be.
      client.forgetCapabilities();
      const scorecard = await runScorecard(client, {
        endpoint,
        onProgress: (done, total, result) => emit('settings/scorecard-progressed', { endpoint, done, total, result }),
      });
      scorecards.save(scorecard);
      return scorecard;
    },
    'settings/get-scorecard': async (endpoint) => scorecards.get(endpoint),
    'settings/list-models': async ({ provider: id, wire, url, apiKey }) => {
      const client = provider.clientFor({
        provider: id,
        wire,
        url,
        model: '',
        apiKey: store.keyFor(id, url, apiKey),
        thinkingBudget: null,
      });
      try {
        return { models: await client.listModels(AbortSignal.timeout(10_000)), error: null };
      } catch (error) {
        return { models: [], error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

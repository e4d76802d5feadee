import { z } from 'zod';
import { MIN_THINKING_BUDGET, MODEL_PROVIDER_IDS } from '../domain/modelPresets.js';
import { Scorecard, ScorecardProgress } from '../domain/modelScorecard.js';
import { DisplaySettings, DisplaySettingsPatch } from '../domain/settingsDisplay.js';

/**
 * Model settings and the connection test. Trust: the renderer may name an endpoint URL
 * (it is the person's own settings form) but never reads a key back — it only learns
 * whether one is set. A saved key is used for another address only if it was entered for
 * that address's origin, so a compromised page cannot send it elsewhere.
 */

const Provider = z.enum(MODEL_PROVIDER_IDS);
const Wire = z.enum(['openai', 'anthropic']);
const Url = z
  .string()
  .trim()
  .max(2000)
  .regex(/^https?:\/\/[^\s]+$/i, 'must start with http:// or https://');

/** A form as typed: what to save or to test. */
export const ModelSettingsDraft = z.object({
  provider: Provider,
  wire: Wire,
  url: Url,
  model: z.string().trim().min(1, 'a model is needed').max(300),
  /** Extended thinking budget in tokens (Anthropic); null = off. */
  thinkingBudget: z.number().int().min(MIN_THINKING_BUDGET).max(200_000).nullable(),
  /** A key typed now; absent = keep (or use) the saved one. */
  apiKey: z.string().trim().min(1).max(1000).optional(),
});
export type ModelSettingsDraft = z.infer<typeof ModelSettingsDraft>;

/** How the model is configured, as the panel and the status bar see it (no key, ever). */
export const ModelStatus = z.object({ configured: z.boolean(), name: z.string().nullable(), help: z.string().nullable() });

export const ModelSettingsView = z.object({
  /** The saved form, or null before the first save. */
  saved: z.object({ provider: Provider, wire: Wire, url: z.string(), model: z.string(), thinkingBudget: z.number().nullable() }).nullable(),
  /** Whether a key is saved for each provider, and for which origin. */
  keys: z.array(z.object({ provider: Provider, origin: z.string() })),
  keyStorage: z.object({ kind: z.enum(['os-keychain', 'file']), note: z.string() }),
  /** MAPWRIGHT_MODEL_* variables that override the saved settings, if any are set. */
  envOverride: z.object({ active: z.boolean(), variables: z.array(z.string()), summary: z.string().nullable() }),
  status: ModelStatus,
});
export type ModelSettingsView = z.infer<typeof ModelSettingsView>;

export const ConnectionReport = z.object({
  ok: z.boolean(),
  /** One line for the person: what worked or what failed, and why. */
  message: z.string(),
  detected: z.object({
    tools: z.enum(['native', 'json', 'unknown']),
    streaming: z.enum(['yes', 'no', 'unknown']),
    reasoning: z.enum(['unknown', 'none', 'think-tags', 'reasoning-field', 'anthropic-thinking']),
  }),
  /** Refusals and retries on the way, in order ("tools refused (HTTP 400) …"). */
  notes: z.array(z.string()),
  models: z.array(z.string()).nullable(),
  latencyMs: z.number().nullable(),
  status: z.number().nullable(),
});
export type ConnectionReport = z.infer<typeof ConnectionReport>;

/** Bridge methods and events of this domain; their names are listed in names.ts. */
export const settingsMethods = {
  'settings/get': { params: z.object({}), result: ModelSettingsView },
  /** Saves the form; the next run uses the new model. `clearKey` forgets the provider's key. */
  'settings/save': { params: ModelSettingsDraft.extend({ clearKey: z.boolean().default(false) }), result: ModelSettingsView },
  /** Sends a tiny request with a probe tool and reports what the endpoint accepted. */
  'settings/test-connection': { params: ModelSettingsDraft, result: ConnectionReport },
  /**
   * Runs the model scorecard (issue 17) against the draft's endpoint: about ten probes, one
   * after another, each pushed as `settings/scorecard-progressed`; saves and returns the card.
   */
  'settings/run-scorecard': { params: ModelSettingsDraft, result: Scorecard },
  /** The last scorecard saved for an endpoint, or null. */
  'settings/get-scorecard': {
    params: z.object({ provider: Provider, wire: Wire, url: Url, model: z.string().trim().min(1).max(300) }),
    result: Scorecard.nullable(),
  },
  'settings/list-models': {
    params: z.object({ provider: Provider, wire: Wire, url: Url, apiKey: z.string().trim().min(1).max(1000).optional() }),
    result: z.object({ models: z.array(z.string()), error: z.string().nullable() }),
  },
  /** Display settings (the online basemap, off by default); app-wide, applied at once. */
  'settings/get-display': { params: z.object({}), result: DisplaySettings },
  'settings/set-display': { params: DisplaySettingsPatch, result: DisplaySettings },
} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export const settingsEvents = {
  /** Reasoning of the turn being streamed into `messageId`; shown live, never saved. */
  'assistant/reasoning-delta': z.object({ messageId: z.string(), delta: z.string() }),
  /** The model settings changed (saved here or elsewhere): the status bar follows. */
  'settings/changed': ModelStatus,
  /** The display settings changed: the map switches its basemap. */
  'settings/display-changed': DisplaySettings,
  /** One probe of a running scorecard was graded. */
  'settings/scorecard-progressed': ScorecardProgress,
} satisfies Record<string, z.ZodType>;

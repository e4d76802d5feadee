import type { ConnectionReport, ModelSettingsDraft, ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';
import { MIN_THINKING_BUDGET, presetOf, type ModelProviderId, type ModelWire } from '../../src-shared/domain/modelPresets.js';

/**
 * The settings form as typed, and the pure rules around it: filling from a preset,
 * checking before sending, and the words for what a connection test detected.
 */
export interface SettingsForm {
  provider: ModelProviderId;
  wire: ModelWire;
  url: string;
  model: string;
  /** As typed; '' = thinking off. */
  thinkingBudget: string;
  /** A key typed now; '' = keep the saved one. */
  apiKey: string;
  clearKey: boolean;
}

export type FormErrors = Partial<Record<'url' | 'model' | 'thinkingBudget' | 'apiKey', string>>;

export function formFromView(view: ModelSettingsView | null): SettingsForm {
  const saved = view?.saved;
  if (saved) {
    return { ...saved, thinkingBudget: saved.thinkingBudget === null ? '' : String(saved.thinkingBudget), apiKey: '', clearKey: false };
  }
  const preset = presetOf('openai');
  return { provider: preset.id, wire: preset.wire, url: preset.url, model: '', thinkingBudget: '', apiKey: '', clearKey: false };
}

/** A preset fills what the person has not made their own: a URL or model still at the old preset's value. */
export function applyPreset(form: SettingsForm, id: ModelProviderId): SettingsForm {
  const before = presetOf(form.provider);
  const next = presetOf(id);
  const urlIsDefault = form.url.trim() === '' || form.url.trim() === before.url;
  const modelIsDefault = form.model.trim() === '' || form.model.trim() === before.exampleModel;
  return {
    ...form,
    provider: id,
    wire: id === 'custom' ? form.wire : next.wire,
    url: urlIsDefault ? next.url : form.url,
    model: modelIsDefault ? '' : form.model,
    apiKey: '',
    clearKey: false,
  };
}

export function draftOf(form: SettingsForm): { ok: true; draft: ModelSettingsDraft } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  const url = form.url.trim();
  if (!/^https?:\/\/\S+$/i.test(url)) errors.url = 'An address starting with http:// or https://';
  const model = form.model.trim();
  if (model === '') errors.model = 'Which model to use';
  let thinkingBudget: number | null = null;
  // Extended thinking is Anthropic's; a budget left in the form for another wire means nothing.
  if (form.wire === 'anthropic' && form.thinkingBudget.trim() !== '') {
    const value = Number(form.thinkingBudget);
    if (!Number.isInteger(value) || value < MIN_THINKING_BUDGET || value > 200_000)
      errors.thinkingBudget = `Whole tokens, ${MIN_THINKING_BUDGET} to 200000, or empty for off`;
    else thinkingBudget = value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const apiKey = form.apiKey.trim();
  return { ok: true, draft: { provider: form.provider, wire: form.wire, url, model, thinkingBudget, ...(apiKey ? { apiKey } : {}) } };
}

function originOf(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return '';
  }
}

/** Whether a saved key will be used for the URL in the form (keys stay with the origin they were typed for). */
export function keyStateOf(view: ModelSettingsView | null, form: SettingsForm): 'set' | 'other-address' | 'none' {
  const saved = view?.keys.find((k) => k.provider === form.provider);
  if (!saved) return 'none';
  return saved.origin === originOf(form.url) ? 'set' : 'other-address';
}

export const TOOLS_LABELS: Record<ConnectionReport['detected']['tools'], string> = {
  native: 'Native tool calls',
  json: 'JSON in the prompt (native tools refused)',
  unknown: 'Not known yet',
};
export const STREAMING_LABELS: Record<ConnectionReport['detected']['streaming'], string> = {
  yes: 'Streaming',
  no: 'Plain requests (streaming refused)',
  unknown: 'Not known yet',
};
export const REASONING_LABELS: Record<ConnectionReport['detected']['reasoning'], string> = {
  unknown: 'Not known yet',
  none: 'None seen',
  'think-tags': '<think> tags in the answer',
  'reasoning-field': 'Separate reasoning field',
  'anthropic-thinking': 'Anthropic thinking blocks',
};

/**
 * Which model to talk to, from the environment. The settings panel stores an endpoint too;
 * these variables override it when set (tests, demos and scripted set-ups rely on that).
 */

export type ModelWireName = 'openai' | 'anthropic';

export interface ModelConfig {
  /** Which wire format: MAPWRIGHT_MODEL_PROVIDER, `openai` (any compatible server) by default. */
  wire: ModelWireName;
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export type ModelConfigResult = { ok: true; config: ModelConfig } | { ok: false; help: string };

export const MODEL_ENV_VARIABLES = ['MAPWRIGHT_MODEL_URL', 'MAPWRIGHT_MODEL', 'MAPWRIGHT_API_KEY', 'MAPWRIGHT_MODEL_PROVIDER'] as const;

export const MODEL_CONFIG_HELP = [
  'No model configured: open Settings (the gear in the status bar), or set MAPWRIGHT_MODEL_URL and MAPWRIGHT_MODEL',
  '(plus MAPWRIGHT_API_KEY if the service needs a key). For a local Ollama:',
  '  MAPWRIGHT_MODEL_URL=http://127.0.0.1:11434/v1 MAPWRIGHT_MODEL=qwen2.5',
].join('\n');

/** Whether the environment means to configure the model (then it wins over the saved settings). */
export function modelEnvActive(env: Record<string, string | undefined> = process.env): boolean {
  return (env.MAPWRIGHT_MODEL_URL?.trim() ?? '') !== '' || (env.MAPWRIGHT_MODEL?.trim() ?? '') !== '';
}

export function readModelConfig(env: Record<string, string | undefined> = process.env): ModelConfigResult {
  const baseUrl = env.MAPWRIGHT_MODEL_URL?.trim() ?? '';
  const model = env.MAPWRIGHT_MODEL?.trim() ?? '';
  const apiKey = env.MAPWRIGHT_API_KEY?.trim() ?? '';
  const provider = (env.MAPWRIGHT_MODEL_PROVIDER?.trim() ?? '').toLowerCase();
  if (baseUrl === '' || model === '') {
    const missing = [baseUrl === '' ? 'MAPWRIGHT_MODEL_URL' : null, model === '' ? 'MAPWRIGHT_MODEL' : null]
      .filter((name) => name !== null)
      .join(' and ');
    // Say what is missing only when something was half set up; otherwise the general help.
    const help = baseUrl === '' && model === '' ? MODEL_CONFIG_HELP : `${missing} is not set.\n${MODEL_CONFIG_HELP}`;
    return { ok: false, help };
  }
  if (!/^https?:\/\//i.test(baseUrl)) {
    return { ok: false, help: `MAPWRIGHT_MODEL_URL must start with http:// or https:// (got "${baseUrl}").\n${MODEL_CONFIG_HELP}` };
  }
  if (provider !== '' && provider !== 'openai' && provider !== 'anthropic') {
    return { ok: false, help: `MAPWRIGHT_MODEL_PROVIDER must be openai or anthropic (got "${provider}").\n${MODEL_CONFIG_HELP}` };
  }
  return {
    ok: true,
    config: { wire: provider === 'anthropic' ? 'anthropic' : 'openai', baseUrl, model, apiKey: apiKey === '' ? null : apiKey },
  };
}

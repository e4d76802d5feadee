/**
 * Which model to talk to, from the environment. Used until the settings screen stores an
 * endpoint; also how tests and demos point the app at the scripted model server.
 */

export interface ModelConfig {
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export type ModelConfigResult = { ok: true; config: ModelConfig } | { ok: false; help: string };

export const MODEL_CONFIG_HELP = [
  'No model configured: set MAPWRIGHT_MODEL_URL (any OpenAI-compatible endpoint) and MAPWRIGHT_MODEL,',
  'plus MAPWRIGHT_API_KEY if the service needs a key. For a local Ollama:',
  '  MAPWRIGHT_MODEL_URL=http://127.0.0.1:11434/v1 MAPWRIGHT_MODEL=qwen2.5',
].join('\n');

export function readModelConfig(env: Record<string, string | undefined> = process.env): ModelConfigResult {
  const baseUrl = env.MAPWRIGHT_MODEL_URL?.trim() ?? '';
  const model = env.MAPWRIGHT_MODEL?.trim() ?? '';
  const apiKey = env.MAPWRIGHT_API_KEY?.trim() ?? '';
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
  return { ok: true, config: { baseUrl, model, apiKey: apiKey === '' ? null : apiKey } };
}

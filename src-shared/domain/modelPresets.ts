/**
 * The model endpoints people use, as presets for the settings panel. Pure data, read by main
 * (defaults, validation) and the renderer (the form). A preset only fills the form: every
 * field stays editable, and "custom" takes any OpenAI- or Anthropic-compatible server.
 */
export const MODEL_PROVIDER_IDS = ['openai', 'anthropic', 'ollama', 'lmstudio', 'llamacpp', 'deepseek', 'openrouter', 'custom'] as const;
export type ModelProviderId = (typeof MODEL_PROVIDER_IDS)[number];

export type ModelWire = 'openai' | 'anthropic';

export interface ModelPreset {
  id: ModelProviderId;
  label: string;
  wire: ModelWire;
  /** The URL to start from ('' for custom). */
  url: string;
  /** Whether the service refuses requests without a key. Local servers need none. */
  needsKey: boolean;
  /** A model to suggest when the endpoint cannot list its models. */
  exampleModel: string;
  /** One line of help under the form. */
  note: string;
}

export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    wire: 'openai',
    url: 'https://api.openai.com/v1',
    needsKey: true,
    exampleModel: 'gpt-4.1-mini',
    note: 'Keys at platform.openai.com.',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    wire: 'anthropic',
    url: 'https://api.anthropic.com',
    needsKey: true,
    exampleModel: 'claude-sonnet-4-5',
    note: 'Messages API. Set a thinking budget to turn extended thinking on.',
  },
  {
    id: 'ollama',
    label: 'Ollama',
    wire: 'openai',
    url: 'http://127.0.0.1:11434/v1',
    needsKey: false,
    exampleModel: 'qwen3',
    note: 'Local. Models without tool support are driven through JSON in the prompt.',
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    wire: 'openai',
    url: 'http://127.0.0.1:1234/v1',
    needsKey: false,
    exampleModel: 'qwen3-8b',
    note: 'Local. Start the server in LM Studio’s Developer tab.',
  },
  {
    id: 'llamacpp',
    label: 'llama.cpp server',
    wire: 'openai',
    url: 'http://127.0.0.1:8080/v1',
    needsKey: false,
    exampleModel: 'default',
    note: 'Local. Start llama-server with --jinja for native tool calls.',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    wire: 'openai',
    url: 'https://api.deepseek.com/v1',
    needsKey: true,
    exampleModel: 'deepseek-chat',
    note: 'deepseek-reasoner shows its reasoning live.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    wire: 'openai',
    url: 'https://openrouter.ai/api/v1',
    needsKey: true,
    exampleModel: 'anthropic/claude-sonnet-4.5',
    note: 'One key for many providers.',
  },
  {
    id: 'custom',
    label: 'Custom',
    wire: 'openai',
    url: '',
    needsKey: false,
    exampleModel: '',
    note: 'Any OpenAI-compatible (vLLM, a company gateway…) or Anthropic-compatible endpoint.',
  },
];

export function presetOf(id: ModelProviderId): ModelPreset {
  return MODEL_PRESETS.find((p) => p.id === id) ?? MODEL_PRESETS[MODEL_PRESETS.length - 1]!;
}

/** Anthropic's minimum thinking budget, in tokens. */
export const MIN_THINKING_BUDGET = 1024;

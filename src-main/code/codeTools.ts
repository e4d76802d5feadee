import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { compileSnippet } from '../code-host/snippetErrors.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';
import { CODE_HOST_FILE, GDAL_BROKER_FILE } from './codeHostFiles.js';
import { DEFAULT_MEMORY_MB, DEFAULT_PRINT_CAP, DEFAULT_TIMEOUT_MS, describeCodeError, runCode, type CodeRunOptions } from './codeRunner.js';
import { SNIPPET_API_DTS } from './snippetApi.js';

/** The longest snippet the model may send. */
export const MAX_CODE_CHARS = 20_000;
export const MAX_INTENT_CHARS = 200;

/** What tests (and a future settings page) may change; the app uses the defaults. */
export interface CodeToolOptions {
  snippetHost?: string;
  broker?: string;
  sandbox?: 'auto' | 'off';
  timeoutMs?: number;
  memoryMb?: number;
}

const input = z.strictObject({
  code: z.string().min(1).max(MAX_CODE_CHARS).describe('The snippet: the body of an async function using the API above.'),
  intent: z
    .string()
    .trim()
    .min(3)
    .max(MAX_INTENT_CHARS)
    .refine((s) => !/[\r\n]/.test(s), 'one sentence, on one line')
    .describe('One plain sentence for the person approving it: what the code does and what it makes.'),
});

/**
 * `code.run_js` — the escape hatch: JavaScript the model writes for what no tool does, run
 * once in fresh child processes (codeRunner.ts) after the person approved the exact code.
 * Destructive: it always asks, is never remembered, and is never offered in Plan mode.
 */
export function createCodeTools(deps: ComposedToolDeps, options: CodeToolOptions = {}): ToolDefinition[] {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
  const runJs = defineTool({
    id: 'code.run_js',
    version: '1.0.0',
    description: [
      'Runs a JavaScript snippet once, for analysis no other tool does; the person sees the code and approves every run.',
      "The snippet is the body of an async function (top-level await). It reads the project's layers by name (read-only) and",
      'creates new layers with output(); outputs are added to the map when it ends without error. No require/import, files,',
      `network or processes. Budgets: ${Math.round(timeoutMs / 1000)} s, ${memoryMb} MB; the first ${DEFAULT_PRINT_CAP} characters printed come back.`,
      'Errors come back as syntax_error (line, column), exception (message, stack lines), timeout or memory_limit. API:',
      SNIPPET_API_DTS,
    ].join('\n'),
    input,
    title: 'Run JavaScript',
    group: 'Code',
    icon: 'cog',
    summary: (args) => args.intent,
    notice: (data) => {
      const outs = (data as { outputs?: { name: string }[] } | null)?.outputs ?? [];
      return outs.length ? `Code made ${outs.map((o) => o.name).join(', ')}` : null;
    },
    safety: 'destructive',
    // The runner's own wall time ends it first, with a clear error; this covers start-up and closing the outputs.
    timeoutMs: timeoutMs + 30_000,
    exec: 'main',
    handles: [],
    async prepare(args) {
      // Compiling never runs anything: a syntax error is sent back before the person is asked.
      const compiled = compileSnippet(args.code);
      if (!compiled.ok)
        throw new ToolFailure(
          'invalid_params',
          describeCodeError(compiled.error),
          false,
          'Fix the code at that line and column; the snippet is the body of an async function (no import/require).',
        );
      const layers = deps.store.layers.list();
      return {
        args,
        preview: {
          language: 'javascript',
          intent: args.intent,
          layers: layers.length ? layers.map((l) => l.name).join(', ') : 'none',
          budget: `${Math.round(timeoutMs / 1000)} s, ${memoryMb} MB`,
          writes: 'new layers in the outputs folder only',
        },
      };
    },
    async execute(args, { signal, progress }) {
      progress(0, 'Starting');
      const run: CodeRunOptions = {
        code: args.code,
        layers: deps.store.layers.list().map((l) => ({ name: l.name, kind: l.kind, source: l.source, sublayer: l.sublayer })),
        outputsDir: deps.outputsDir(),
        snippetHost: options.snippetHost ?? join(deps.distMainDir, CODE_HOST_FILE),
        broker: options.broker ?? join(deps.distMainDir, GDAL_BROKER_FILE),
        ...(deps.runtime?.execPath ? { execPath: deps.runtime.execPath } : {}),
        ...(deps.runtime?.runAsNode ? { runAsNode: true } : {}),
        sandbox: options.sandbox ?? 'auto',
        hidePaths: deps.privatePaths.toJSON().roots,
        signal,
        timeoutMs,
        memoryMb,
        onPrint: () => progress(0.5, 'Running'),
      };
      const r = await runCode(run);
      const more = r.printedChars - r.printed.length;
      return {
        printed: more > 0 ? `${r.printed}… ${more} more characters not shown (${r.printedChars} printed in all)` : r.printed,
        outputs: r.outputs.map((o) => ({ name: o.name, kind: o.kind, path: o.path })),
        seconds: Math.round(r.totalMs / 100) / 10,
        ...(r.isolation.notes.length ? { isolation: r.isolation.notes } : {}),
        ...(r.outputs.length ? { load_layers: r.outputs.map((o) => ({ path: o.path, name: o.name })) } : {}),
      };
    },
  });
  return [runJs];
}

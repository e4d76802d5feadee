import { renameSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { defineTool, type LoadLayerRequest, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';
import {
  DEFAULT_LIMITS,
  pythonSupport,
  runPythonSnippet,
  type PythonSupport,
  type SnippetLimits,
  type SnippetOutcome,
} from './pythonRunner.js';

/**
 * `code.run_python` (issue #13): a Python snippet with GDAL's bindings, run in a fresh child
 * under bubblewrap (no network, the file system read-only except the run's folder, the app's
 * files and the person's home hidden). Offered only where the probe (pythonRunner.ts) found a
 * `python3` with `osgeo.gdal` that starts in that sandbox. Destructive: always asks, never
 * remembered, not offered in Plan mode.
 */

export const MAX_CODE_CHARS = 20_000;
export const MAX_INTENT_CHARS = 200;
/** What the model reads of the snippet's printed text; the rest is summarised by its length. */
export const TEXT_CAP = 2000;

const input = z.object({
  code: z.string().min(1).max(MAX_CODE_CHARS).describe('The Python 3 code to run (GDAL bindings available).'),
  intent: z
    .string()
    .trim()
    .min(3)
    .max(MAX_INTENT_CHARS)
    .refine((s) => !s.includes('\n'), 'one sentence, on one line')
    .describe('One plain sentence for the person approving: what this code does and why.'),
});

const DESCRIPTION = `Runs a Python 3 snippet with GDAL's bindings when no built-in tool does the job (an escape hatch; prefer the GIS tools).
Globals: \`layers\` — the project's layers by name, each a read-only gdal.Dataset opened on first use (\`layers.feature_layer(name)\` gives the ogr.Layer a vector layer shows); \`output(name, kind)\` — kind 'vector' (GeoPackage) or 'raster' (GeoTIFF): returns a path you create with GDAL (e.g. gdal.GetDriverByName('GPKG').Create(path, 0, 0, 0, gdal.GDT_Unknown)); each output is loaded into the project afterwards; \`print\` — text returned to you (first ${TEXT_CAP} characters); \`gdal\`, \`ogr\`, \`osr\` (and \`np\` where numpy exists) are imported, with exceptions on.
Limits: ${DEFAULT_LIMITS.wallMs / 1000} s, ${DEFAULT_LIMITS.memoryMb} MB of memory, no network, no processes, files only in the run's own folder (other files you write there are discarded). \`intent\` is one plain sentence for the person who approves it.
Errors name the line: syntax errors with line and column, exceptions with the snippet's own traceback lines.`;

/** The tool where Python can run snippets here; none otherwise (see `pythonSupport().reason`). */
export function createPythonTools(
  deps: ComposedToolDeps,
  support: PythonSupport = pythonSupport(),
  limits: Partial<SnippetLimits> = {},
): ToolDefinition[] {
  if (!support.available) return [];
  const budget = { ...DEFAULT_LIMITS, ...limits };
  return [
    defineTool({
      id: 'code.run_python',
      version: '1.0.0',
      description: DESCRIPTION,
      input,
      title: 'Run Python code',
      group: 'Code',
      icon: 'code',
      summary: (args) => `Run Python: ${args.intent}`,
      notice: (data) => {
        const n = (data as { load_layers?: unknown[] } | null)?.load_layers?.length ?? 0;
        return n ? `Python code produced ${n} layer${n === 1 ? '' : 's'}.` : null;
      },
      safety: 'destructive',
      network: false,
      caller: 'user_and_model',
      // The snippet's own wall time decides; the dispatcher's limit only backs it up.
      timeoutMs: budget.wallMs + 15_000,
      concurrency: 1,
      exec: 'main',
      handles: ['project'],
      async prepare(args) {
        const intent = args.intent.trim();
        return {
          args: { code: args.code, intent },
          preview: {
            language: 'python',
            intent,
            lines: args.code.split('\n').length,
            time_limit_s: Math.round(budget.wallMs / 1000),
            memory_mb: budget.memoryMb,
            writes: 'new files in the outputs folder only',
            network: 'none',
          },
        };
      },
      async execute(args, { signal, progress, handles }) {
        const project = handles.project;
        const layers = project.listLayers().map((l) => ({ name: l.name, source: l.source, sublayer: l.sublayer, kind: l.kind }));
        progress(0, 'Running Python');
        const outcome = await runPythonSnippet({
          code: args.code,
          layers,
          outputsDir: deps.outputsDir(),
          hidePaths: deps.privatePaths.toJSON().roots,
          limits: budget,
          signal,
        });
        if (!outcome.ok) throw failureOf(outcome, budget);
        try {
          const loaded: LoadLayerRequest[] = [];
          const missing: string[] = [];
          for (const o of outcome.outputs) {
            if (!o.exists) {
              missing.push(o.name);
              continue;
            }
            const path = project.outputPath(o.name, o.kind === 'raster' ? 'tif' : 'gpkg');
            renameSync(o.path, path);
            loaded.push({ path, name: o.name });
          }
          progress(1, 'Python finished');
          return {
            output: capText(outcome.text, outcome.textLength),
            ...(loaded.length ? { load_layers: loaded } : {}),
            ...(missing.length
              ? { not_created: missing, note: `output() was called for ${missing.join(', ')} but no file was written.` }
              : {}),
            duration_ms: outcome.durationMs,
          };
        } finally {
          rmSync(outcome.runDir, { recursive: true, force: true });
        }
      },
    }),
  ];
}

/** The printed text as the model reads it: at most `TEXT_CAP` characters, the rest by its length. */
export function capText(text: string, total: number): string {
  const shown = text.slice(0, TEXT_CAP);
  const length = Math.max(total, text.length);
  return length > shown.length ? `${shown}\n… [${length - shown.length} more characters not shown; ${length} in all]` : shown;
}

/** A failed run as the error the model reads: the kind, then where in the snippet. */
export function failureOf(o: Extract<SnippetOutcome, { ok: false }>, limits: SnippetLimits): ToolFailure {
  const printed = o.textLength ? `\nPrinted before it failed:\n${capText(o.text, o.textLength)}` : '';
  const where = (o.lines ?? []).map(
    (f) => `  line ${f.line}${f.function && f.function !== '<module>' ? `, in ${f.function}` : ''}: ${f.code}`,
  );
  const trace = where.length ? `\nSnippet traceback (most recent call last):\n${where.join('\n')}` : '';
  switch (o.kind) {
    case 'syntax':
      return new ToolFailure(
        'invalid_params',
        `Python syntax error at line ${o.line ?? '?'}, column ${o.column ?? '?'}: ${o.message}${o.code ? `\n  ${o.code}` : ''}`,
        false,
        'Fix the code and call again.',
      );
    case 'exception':
      return new ToolFailure('handler_error', `Python exception ${o.type ?? 'Exception'}: ${o.message}${trace}${printed}`, false);
    case 'refused':
      return new ToolFailure(
        'not_allowed',
        `${o.message}${trace}`,
        false,
        'Snippets have no network and cannot start programs; use the built-in tools for those.',
      );
    case 'memory':
      return new ToolFailure(
        'handler_error',
        `Python memory limit: the snippet needed more than its ${limits.memoryMb} MB (${o.type ?? 'MemoryError'}${o.message ? `: ${o.message}` : ''}).${trace}${printed}`,
        false,
        'Process the data in chunks (by block or by feature) instead of all at once.',
      );
    case 'timeout':
      return new ToolFailure(
        'timeout',
        `Python time-out: ${o.message}${printed}`,
        false,
        'Make the code faster or work on a smaller area.',
      );
    case 'cancelled':
      return new ToolFailure('cancelled', `Python was stopped: ${o.message}`);
    default:
      return new ToolFailure(
        'handler_error',
        `${o.message}${o.stderr.trim() ? `\n${o.stderr.trim().split('\n').slice(-8).join('\n')}` : ''}`,
        false,
      );
  }
}

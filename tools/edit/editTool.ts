import type { z } from 'zod';
import { layerSource } from '../../src-shared/domain/source.js';
import type { EditOp } from '../../src-shared/edit/editOps.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { Safety, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { applyOp, editableLayer, whereItGoes } from './editSession.js';

/**
 * The read-only preview. What it refuses — an unknown field, a filter or expression outside the
 * allow-list, a geometry of the wrong kind — is the arguments' fault: `invalid_params`, so the
 * model fixes the call (a crashed worker stays a retryable `handler_error`).
 */
async function preview(gdal: GdalHandle, source: string, op: EditOp, signal: AbortSignal) {
  try {
    return await gdal.call(
      'edit.preview',
      { source, op },
      { signal, hint: 'Fix the arguments as the message says; inspect_layer_info lists the fields.' },
    );
  } catch (err) {
    if (err instanceof ToolFailure && err.code === 'handler_error' && !err.retryable)
      throw new ToolFailure('invalid_params', err.message, false, err.hint);
    throw err;
  }
}

/** Deleting more features than this asks as destructive: always, never remembered. */
export const DESTRUCTIVE_DELETE_ABOVE = 10;

interface EditToolSpec<S extends z.ZodObject<{ layer: z.ZodString }>> {
  id: `${'edit' | 'fields'}.${string}`;
  title: string;
  description: string;
  input: S;
  /** Rules on parameters beyond `layer` (which always names a layer), e.g. an existing field. */
  rules?: Readonly<Record<string, readonly string[]>>;
  safety?: Safety;
  summary(args: z.output<S>): string;
  /** The op the call makes, from its checked arguments. */
  op(args: z.output<S>): EditOp;
  /** Raise this call to destructive, from how many rows it touches. */
  destructive?(total: number): boolean;
}

/**
 * An edit tool: `prepare` previews the op read-only (how many rows, a few before/after, what
 * would not convert) for the dialog; `execute` applies it to the working copy under the call's
 * undo snapshot. Tools differ only in their arguments and the op they make.
 */
export function defineEditTool<S extends z.ZodObject<{ layer: z.ZodString }>>(
  spec: EditToolSpec<S>,
): ToolDefinition<S, 'project' | 'gdal'> {
  return defineTool({
    id: spec.id,
    version: '1.0.0',
    group: 'edit',
    icon: 'layers',
    title: spec.title,
    description: spec.description,
    input: spec.input,
    rules: { layer: ['layer_exists'], ...spec.rules },
    safety: spec.safety ?? 'write',
    userVisible: true,
    exec: 'worker',
    handles: ['project', 'gdal'],
    timeoutMs: 10 * 60_000,
    summary: spec.summary,
    async prepare(args, { handles, signal }) {
      const layer = editableLayer(handles.project, args.layer);
      const op = spec.op(args);
      const { sample, notes } = await preview(handles.gdal, layerSource(layer), op, signal);
      return {
        args,
        preview: { ...whereItGoes(layer), rows: sample.total, ...(notes.length ? { warning: notes.join(' ') } : {}) },
        sample,
        ...(spec.destructive?.(sample.total) ? { escalate: 'destructive' as const } : {}),
      };
    },
    async execute(args, { handles, signal, changeId, progress }) {
      return applyOp(handles, args.layer, spec.op(args), { signal, changeId, progress });
    },
  });
}

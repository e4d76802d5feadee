import { z } from 'zod';
import { BBox } from '../domain/layer.js';
import { PrintSpec } from '../domain/printLayout.js';
import { AuditEntryView, PolicyState, UndoState } from '../domain/toolLayer.js';

/**
 * The tool layer's part of the bridge: renderer-answered queries (current view, screenshot),
 * the audit log, approval policy and undo state. The GUI's actions (undo, revert, mode) are
 * Commands run through `entries/trigger`, not methods here.
 */
/**
 * Questions main asks the renderer for `exec: renderer` tools (the map's view, a screenshot,
 * the selection, a composed print page), and `fit_bounds`: fit the map to a box and answer
 * with the view once it has settled.
 */
export const RendererQueryKind = z.enum(['current_view', 'screenshot', 'selection', 'print_layout', 'fit_bounds']);
export type RendererQueryKind = z.infer<typeof RendererQueryKind>;

export const toolLayerMethods = {
  /** The renderer's answer to a `renderer/query-requested` event. */
  'renderer/answer': {
    params: z.object({
      queryId: z.string(),
      ok: z.boolean(),
      value: z.unknown().optional(),
      error: z.string().optional(),
    }),
    result: z.object({ accepted: z.boolean() }),
  },
  'audit/list': {
    params: z.object({
      toolId: z.string().optional(),
      caller: z.enum(['user', 'model', 'client']).optional(),
      outcome: z.enum(['ok', 'error']).optional(),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    result: z.object({ entries: z.array(AuditEntryView) }),
  },
  'policy/get': {
    params: z.object({}),
    result: z.object({ policy: PolicyState, undo: UndoState }),
  },
} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export const toolLayerEvents = {
  'policy/changed': PolicyState,
  'undo/changed': UndoState,
  'tool/progress': z.object({ callId: z.string(), fraction: z.number(), message: z.string() }),
  /** `print` is the page to compose, present for `print_layout` only; `bbox` the box to fit, for `fit_bounds` only. */
  'renderer/query-requested': z.object({
    queryId: z.string(),
    kind: RendererQueryKind,
    print: PrintSpec.optional(),
    bbox: BBox.optional(),
  }),
} satisfies Record<string, z.ZodType>;

import type { Layer } from '../../src-shared/domain/layer.js';
import { layerSource } from '../../src-shared/domain/source.js';
import type { EditOp } from '../../src-shared/edit/editOps.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { findLayer } from '../layers/findLayer.js';

type EditHandles = Pick<Handles, 'project' | 'gdal'>;

/**
 * What every edit tool shares (issue #14): the layer must be a local vector layer or table; the
 * first edit copies it into the project (`edit.create_copy`) and switches the layer to the copy,
 * so the original file is never written; each edit runs in the copy under the call's undo
 * snapshot id, which Undo and Revert turn use to put the data back.
 */
export function editableLayer(project: EditHandles['project'], ref: string): Layer {
  const layer = findLayer(project, ref);
  if (layer.kind === 'raster')
    throw new ToolFailure('invalid_params', `'${layer.name}' is a raster; only vector layers and tables can be edited.`, false);
  const c = classifySource(layer.source);
  if (c.kind !== 'local')
    throw new ToolFailure(
      'invalid_params',
      `'${layer.name}' is read from ${c.kind === 'network' ? 'the network' : 'an archive or service'}; it cannot be edited in place.`,
      false,
      'Save a local copy first (processing_run with an output), then edit that layer.',
    );
  return layer;
}

/** Makes the layer's working copy (if it has none yet) and switches the layer to it. */
export async function startEditing(
  handles: EditHandles,
  layer: Layer,
  signal: AbortSignal,
  progress?: (fraction: number, message: string) => void,
): Promise<Layer> {
  if (layer.editing) return layer;
  const output = handles.project.editing.workingCopyPath(layer.name);
  const copy = await handles.gdal.call(
    'edit.create_copy',
    { source: layerSource(layer), output },
    { signal, ...(progress ? { progress } : {}) },
  );
  return handles.project.editing.startEditing(layer.id, { source: copy.source, sublayer: copy.table, info: copy.info });
}

/** Applies one op to the layer's working copy under the call's undo snapshot. */
export async function applyOp(
  handles: EditHandles,
  ref: string,
  op: EditOp,
  ctx: { signal: AbortSignal; changeId?: number | null; progress?: (fraction: number, message: string) => void },
) {
  if (!ctx.changeId) throw new ToolFailure('handler_error', 'An edit must run as an approved change (no undo snapshot was taken).', false);
  const layer = await startEditing(handles, editableLayer(handles.project, ref), ctx.signal, ctx.progress);
  const applied = await handles.gdal.call('edit.apply', { source: layerSource(layer), tx: ctx.changeId, op }, { signal: ctx.signal });
  const after = handles.project.editing.dataChanged(layer.id, applied.info, ctx.changeId);
  return {
    layer: after.name,
    changed: applied.changed,
    ...(applied.fids.length ? { fids: applied.fids.slice(0, 50), fids_truncated: applied.fids.length > 50 } : {}),
    feature_count: applied.info.featureCount,
    fields: applied.info.fields.map((f) => f.name),
    working_copy: after.source,
    ...(applied.notes.length ? { notes: applied.notes } : {}),
  };
}

/** The dialog's facts about where the edit goes. */
export function whereItGoes(layer: Layer): Record<string, string> {
  return layer.editing
    ? { layer: layer.name, working_copy: layer.source }
    : {
        layer: layer.name,
        working_copy: 'made now in the project outputs; the original file is never changed',
        original: layerSource(layer),
      };
}

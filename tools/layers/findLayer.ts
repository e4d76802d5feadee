import type { Layer } from '../../src-shared/domain/layer.js';
import { formatSource, layerSource } from '../../src-shared/domain/source.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/**
 * Resolves a layer by id or exact name, or fails with the names that do exist. A tool that
 * declares `layer_exists` has had the name checked before prepare (with the nearest names);
 * this failure is left for a layer removed while the call waited for its approval.
 */
export function findLayer(project: ProjectHandle, idOrName: string): Layer {
  const layer = project.getLayer(idOrName);
  if (layer) return layer;
  const names = project.listLayers().map((l) => `'${l.name}'`);
  throw new ToolFailure(
    'invalid_params',
    `No layer '${idOrName}' in the project.`,
    false,
    names.length
      ? `Layers: ${names.join(', ')}. Call inspect_list_layers for ids.`
      : 'The project has no layers yet; load one with layers_load.',
  );
}

/** What a tool returns about a layer: enough for the model to continue without another call. */
export function layerSummary(layer: Layer) {
  const i = layer.info;
  return {
    id: layer.id,
    name: layer.name,
    kind: layer.kind,
    source: layerSource(layer),
    crs: i.crs ? (i.crs.epsg ? `EPSG:${i.crs.epsg}` : i.crs.name) : null,
    geometry_type: i.geometryType,
    feature_count: i.featureCount,
    bands: i.bands.length || undefined,
    extent_4326: i.extent4326,
    visible: layer.visible,
    opacity: layer.opacity,
    order: layer.order,
    // Being edited: `source` is the working copy; the original file is untouched until write-back.
    ...(layer.editing
      ? { edited_copy_of: formatSource({ path: layer.editing.originalSource, sublayer: layer.editing.originalSublayer }) }
      : {}),
  };
}

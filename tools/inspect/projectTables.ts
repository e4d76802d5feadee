import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { layerSource } from '../../src-shared/domain/source.js';

/**
 * The project's vector layers and tables as SQL tables named after the layers. Rasters have no
 * rows; a second layer with a name already taken cannot be told apart, so it is left out and
 * the answer says so.
 */
export function projectTables(project: ProjectHandle): { tables: { name: string; source: string }[]; notes: string[] } {
  const tables: { name: string; source: string }[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const layer of project.listLayers()) {
    if (layer.kind === 'raster') continue;
    if (seen.has(layer.name)) {
      notes.push(`a second layer named '${layer.name}' (id ${layer.id}) is not available to SQL; rename it with layers_rename`);
      continue;
    }
    seen.add(layer.name);
    tables.push({ name: layer.name, source: layerSource(layer) });
  }
  return { tables, notes };
}

import { compactLineage } from '../../src-shared/domain/lineage.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { layerSource } from '../../src-shared/domain/source.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/**
 * What made a layer's file (issue 17), read on demand from the file (not kept in the project):
 * the compact record, "unreadable lineage: …" for a damaged one, or undefined when there is
 * none or it cannot be read now — a lineage never fails the description it is part of.
 */
export async function layerLineage(
  gdal: GdalHandle,
  layer: Layer,
  signal: AbortSignal,
): Promise<ReturnType<typeof compactLineage> | string | undefined> {
  try {
    const read = await gdal.call('lineage.read', { source: layerSource(layer) }, { signal });
    if (read.lineage) return compactLineage(read.lineage);
    return read.unreadable ? `unreadable lineage: ${read.unreadable}` : undefined;
  } catch (err) {
    if (err instanceof ToolFailure && err.code === 'cancelled') throw err;
    return undefined;
  }
}

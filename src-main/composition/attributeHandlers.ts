import { MAX_FEATURES_BY_ID } from '../../src-shared/bridge/attributeContract.js';
import type { MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import type { EgressGate } from '../net/egressGate.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { layerReader } from './layerReads.js';

type AttributeHandlers = Pick<MethodHandlers, 'layers/rows' | 'layers/features' | 'layers/select-ids'>;

/**
 * The attribute table's bridge methods. The renderer names a layer by id; main looks up its
 * source (never a path from the renderer) and the worker reads it (gis-worker/tables), checking
 * the filter with the SQL allow-list. A network layer's own origin is open while it is read,
 * as for its tiles (layerReads.ts).
 */
export function createAttributeHandlers(
  store: ProjectStore,
  worker: GisWorkerClient,
  egress: Pick<EgressGate, 'openFor'>,
): AttributeHandlers {
  const tableLayer = (layerId: string): { layer: Layer; source: string } => {
    const layer = store.layers.get(layerId);
    if (!layer || layer.kind === 'raster') throw new Error(`No vector layer or table with id '${layerId}' in the project`);
    return { layer, source: layerSource(layer) };
  };
  const whileReading = layerReader(egress);
  return {
    'layers/rows': async ({ layerId, offset, limit, orderBy, where }) => {
      const { layer, source } = tableLayer(layerId);
      return whileReading(layer, () => worker.call('table.rows', { source, offset, limit, orderBy, where }));
    },
    'layers/features': async ({ layerId, fids }) => {
      const { layer, source } = tableLayer(layerId);
      return whileReading(layer, () => worker.call('table.features', { source, fids }));
    },
    'layers/select-ids': async ({ layerId, where }) => {
      const { layer, source } = tableLayer(layerId);
      return whileReading(layer, () => worker.call('table.ids_where', { source, where, cap: MAX_FEATURES_BY_ID }));
    },
  };
}

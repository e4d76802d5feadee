import type { Layer } from '../../src-shared/domain/layer.js';
import type { RendererBridge } from '../bridge/bridgeTypes.js';
import type { IdentifySection } from '../store/identifyStore.js';
import type { Hit } from './mapHits.js';

/** Features listed per layer: a click on a dense spot stays readable. */
export const MAX_IDENTIFIED_PER_LAYER = 5;

/**
 * The popup's sections for the hits under a click, topmost layer first: every attribute of each
 * feature, read in full from the source through `layers/features` (tiles may carry only some).
 * A layer that fails says so in its own section; the others still show.
 */
export async function identifyHits(
  bridge: Pick<RendererBridge, 'call'>,
  hits: readonly Hit[],
  layers: readonly Layer[],
): Promise<IdentifySection[]> {
  return Promise.all(
    hits.map(async (hit): Promise<IdentifySection> => {
      const layerName = layers.find((l) => l.id === hit.layerId)?.name ?? hit.layerId;
      const fids = hit.fids.slice(0, MAX_IDENTIFIED_PER_LAYER);
      const more = hit.fids.length - fids.length;
      try {
        const { features } = await bridge.call('layers/features', { layerId: hit.layerId, fids });
        const rank = new Map(fids.map((fid, i) => [fid, i]));
        features.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
        return { layerId: hit.layerId, layerName, features, more, error: null };
      } catch (err) {
        return { layerId: hit.layerId, layerName, features: [], more, error: err instanceof Error ? err.message : String(err) };
      }
    }),
  );
}

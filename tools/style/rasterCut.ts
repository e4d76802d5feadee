import type { Layer } from '../../src-shared/domain/layer.js';
import { CUMULATIVE_CUT } from '../../src-shared/style/styleModel.js';
import type { GdalHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { layerSource } from '../../src-shared/domain/source.js';
import {} from './styleLayer.js';

/** The 2–98 % cumulative cut of bands, computed by GDAL in the worker; fails for an all-nodata band. */
export async function cumulativeCut(
  gdal: GdalHandle,
  layer: Layer,
  bands: readonly number[],
  signal: AbortSignal,
): Promise<{ band: number; min: number; max: number }[]> {
  const result = await gdal.call(
    'style.raster_cut',
    { source: layerSource(layer), bands: [...new Set(bands)], lower: CUMULATIVE_CUT[0], upper: CUMULATIVE_CUT[1] },
    { signal },
  );
  return bands.map((band) => {
    const b = result.bands.find((r) => r.band === band);
    if (!b || b.min === null || b.max === null) {
      throw new ToolFailure(
        'invalid_params',
        `Band ${band} of '${layer.name}' has no valid pixels (all nodata): there is nothing to stretch.`,
        false,
      );
    }
    return { band, min: b.min, max: b.max };
  });
}

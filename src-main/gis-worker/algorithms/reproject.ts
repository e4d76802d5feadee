import { z } from 'zod';
import { reproject as spec } from '../../../src-shared/processing/vectorAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import type { AlgorithmRun } from './types.js';
import { openVectorInput, outputLayerName } from './vectorInput.js';

/** ogr2ogr -t_srs, through GDAL's own vectorTranslate: fields, types and NULLs kept as GDAL keeps them. */
export const runReproject: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.extend({ input: z.string() }).parse(params);
  const input = await openVectorInput(p.input, 'input');
  try {
    if (!input.srs) throw new BadInputError(`${input.path} has no CRS, so it cannot be reprojected; set its CRS first`);
    throwIfCancelled(ctx.signal);
    const { path, layerName } = outputLayerName(output);
    const args = ['-f', 'GPKG', '-t_srs', p.target_crs, '-nln', layerName, '-nlt', 'PROMOTE_TO_MULTI', input.layer.name];
    let out;
    try {
      out = await gdal.vectorTranslateAsync(path, input.ds, args, {
        progress_cb: (f: number) => ctx.progress(Math.min(1, Math.max(0, f)), `Reprojecting to ${p.target_crs}`),
      });
    } catch (err) {
      throw new BadInputError(`Cannot reproject ${input.path} to ${p.target_crs}: ${gdalReason(err, input.path)}`);
    }
    const featureCount = out.layers.get(0).features.count();
    out.close();
    ctx.progress(1, `Reprojected ${featureCount.toLocaleString('en-US')} features`);
    return { output, featureCount, notes: [] };
  } finally {
    input.close();
  }
};

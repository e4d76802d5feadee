import { warp as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { GTIFF_ARGS, gdalProgress, openRasterInput } from './rasterInput.js';
import type { AlgorithmRun } from './types.js';

/** gdalwarp -t_srs through GDAL's own warper; source nodata is carried over as GDAL does. */
export const runWarp: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const input = await openRasterInput(p.input, 'input');
  try {
    if (!input.ds.srs) throw new BadInputError(`${input.path} has no CRS, so it cannot be reprojected; assign its CRS first`);
    throwIfCancelled(ctx.signal);
    const args = [
      ...GTIFF_ARGS,
      '-t_srs',
      p.target_crs,
      '-r',
      p.method,
      ...(p.resolution !== undefined ? ['-tr', String(p.resolution), String(p.resolution)] : []),
      '-multi',
      '-wo',
      'NUM_THREADS=ALL_CPUS',
    ];
    let out;
    try {
      out = await gdal.warpAsync(output, null, [input.ds], args, gdalProgress(ctx, `Warping to ${p.target_crs}`));
    } catch (err) {
      throw new BadInputError(`Cannot warp ${input.path} to ${p.target_crs}: ${gdalReason(err, input.path)}`);
    }
    const { x, y } = out.rasterSize;
    const gt = out.geoTransform!;
    out.close();
    ctx.progress(1, `Warped to ${x} × ${y} pixels`);
    return { output, featureCount: null, notes: [`${x} × ${y} pixels of ${Math.abs(gt[1]!)} × ${Math.abs(gt[5]!)} ${p.target_crs} units`] };
  } finally {
    input.close();
  }
};

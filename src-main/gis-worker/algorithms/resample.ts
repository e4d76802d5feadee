import { z } from 'zod';
import { resample as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';
import { openSource } from '../openSource.js';
import type { AlgorithmRun } from './types.js';

/** gdalwarp -tr through GDAL's own warper, with its progress; a cancel kills the worker mid-warp. */
export const runResample: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.extend({ input: z.string() }).parse(params);
  const opened = await openSource(p.input);
  try {
    if (opened.kind !== 'raster') throw new BadInputError(`'input' must be a raster; ${opened.path} is a vector layer`);
    const args = [
      '-of',
      'GTiff',
      '-tr',
      String(p.resolution),
      String(p.resolution),
      '-r',
      p.method,
      '-co',
      'TILED=YES',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'BIGTIFF=IF_SAFER',
      '-overwrite',
    ];
    let out;
    try {
      out = await gdal.warpAsync(output, null, [opened.ds], args, {
        progress_cb: (f: number) => ctx.progress(Math.min(1, Math.max(0, f)), `Resampling to ${p.resolution}`),
      });
    } catch (err) {
      throw new BadInputError(`Cannot resample ${opened.path}: ${gdalReason(err, opened.path)}`);
    }
    const { x, y } = out.rasterSize;
    out.close();
    ctx.progress(1, `Resampled to ${x} × ${y} pixels`);
    return { output, featureCount: null, notes: [`${x} × ${y} pixels`] };
  } finally {
    opened.ds.close();
  }
};

import { mosaic as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { GTIFF_ARGS, gdalProgress, openRasterInput, type RasterInput } from './rasterInput.js';
import type { AlgorithmRun } from './types.js';

/**
 * gdalwarp with several sources: it mosaics rasters on one grid and also brings rasters in other
 * CRSs onto it (gdalbuildvrt would drop those). Later inputs are drawn over earlier ones.
 */
export const runMosaic: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const inputs: RasterInput[] = [];
  try {
    for (const [i, source] of p.inputs.entries()) inputs.push(await openRasterInput(source, `inputs[${i}]`));
    const first = inputs[0]!;
    const bands = first.ds.bands.count();
    const srs = first.ds.srs;
    let sameCrs = true;
    for (const other of inputs.slice(1)) {
      if (other.ds.bands.count() !== bands) {
        throw new BadInputError(`All inputs need the same bands: ${first.path} has ${bands}, ${other.path} has ${other.ds.bands.count()}`);
      }
      const otherSrs = other.ds.srs;
      if (!srs || !otherSrs) {
        if (srs || otherSrs)
          throw new BadInputError(`${srs ? other.path : first.path} has no CRS while the others have one; assign its CRS first`);
      } else if (!otherSrs.isSame(srs)) sameCrs = false;
    }
    throwIfCancelled(ctx.signal);

    const args = [...GTIFF_ARGS, '-r', p.method];
    if (srs) args.push('-t_srs', srs.toWKT());
    if (p.resolution !== undefined) args.push('-tr', String(p.resolution), String(p.resolution));
    else if (sameCrs) {
      // The finest input pixel size; GDAL's own default for several inputs is the first's.
      const sizes = inputs.map((r) => r.ds.geoTransform ?? [0, 1, 0, 0, 0, -1]);
      const tx = Math.min(...sizes.map((gt) => Math.abs(gt[1]!)));
      const ty = Math.min(...sizes.map((gt) => Math.abs(gt[5]!)));
      args.push('-tr', String(tx), String(ty));
    }
    const firstNodata = first.ds.bands.get(1).noDataValue;
    if (p.nodata !== undefined) args.push('-dstnodata', String(p.nodata));
    else if (firstNodata === null) {
      const anyNodata = inputs.some((r) => r.ds.bands.get(1).noDataValue !== null);
      if (anyNodata)
        args.push('-dstnodata', String(inputs.find((r) => r.ds.bands.get(1).noDataValue !== null)!.ds.bands.get(1).noDataValue));
    }
    let out;
    try {
      out = await gdal.warpAsync(
        output,
        null,
        inputs.map((r) => r.ds),
        args,
        gdalProgress(ctx, `Mosaicking ${inputs.length} rasters`),
      );
    } catch (err) {
      throw new BadInputError(`Cannot mosaic ${inputs.map((r) => r.path).join(', ')}: ${gdalReason(err)}`);
    }
    const { x, y } = out.rasterSize;
    const nodata = out.bands.get(1).noDataValue;
    out.close();
    ctx.progress(1, `Mosaic of ${x} × ${y} pixels`);
    const notes = [`${x} × ${y} pixels from ${inputs.length} rasters`];
    if (!sameCrs) notes.push('Inputs in other CRSs were reprojected to the first input’s CRS');
    notes.push(nodata === null ? 'No input has a nodata value: gaps between inputs are 0' : `Nodata: ${nodata}`);
    return { output, featureCount: null, notes };
  } finally {
    for (const r of inputs) r.close();
  }
};

import { rasterize as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { checkOutputSize, GTIFF_ARGS, gdalProgress } from './rasterInput.js';
import type { AlgorithmRun } from './types.js';
import { openVectorInput } from './vectorInput.js';

const NUMERIC_FIELDS = new Set<string>([gdal.OFTInteger, gdal.OFTInteger64, gdal.OFTReal]);

/** gdal_rasterize through GDAL's own rasterizer, over the layer's extent at the given pixel size. */
export const runRasterize: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const input = await openVectorInput(p.input, 'input');
  try {
    const layerName = input.layer.name;
    if (p.attribute !== undefined) {
      const field = input.layer.fields.get(p.attribute);
      const numeric = input.layer.fields
        .map((f) => f)
        .filter((f) => NUMERIC_FIELDS.has(f.type))
        .map((f) => f.name);
      if (!field) throw new BadInputError(`${input.path} has no field '${p.attribute}'; numeric fields: ${numeric.join(', ') || 'none'}`);
      if (!NUMERIC_FIELDS.has(field.type)) {
        throw new BadInputError(
          `Field '${p.attribute}' of ${input.path} is ${field.type}, not a number; numeric fields: ${numeric.join(', ') || 'none'}`,
        );
      }
    }
    let extent;
    try {
      extent = input.layer.getExtent();
    } catch {
      throw new BadInputError(`${input.path} has no features with a geometry to rasterize`);
    }
    const width = Math.ceil((extent.maxX - extent.minX) / p.resolution);
    const height = Math.ceil((extent.maxY - extent.minY) / p.resolution);
    const units = input.srs?.isGeographic() ? 'degrees' : 'CRS units';
    checkOutputSize(width, height, `choose a pixel size larger than ${p.resolution} ${units}`);
    throwIfCancelled(ctx.signal);

    const nodata = p.nodata ?? (p.data_type === 'Byte' ? 0 : -9999);
    const args = [
      ...GTIFF_ARGS,
      '-l',
      layerName,
      '-tr',
      String(p.resolution),
      String(p.resolution),
      '-ot',
      p.data_type,
      '-a_nodata',
      String(nodata),
      '-init',
      String(nodata),
      ...(p.attribute !== undefined ? ['-a', p.attribute] : ['-burn', String(p.burn_value ?? 1)]),
      ...(p.all_touched ? ['-at'] : []),
    ];
    let out;
    try {
      out = await gdal.rasterizeAsync(output, input.ds, args, gdalProgress(ctx, 'Rasterizing'));
    } catch (err) {
      throw new BadInputError(`Cannot rasterize ${input.path}: ${gdalReason(err, input.path)}`);
    }
    const { x, y } = out.rasterSize;
    out.close();
    ctx.progress(1, `Rasterized to ${x} × ${y} pixels`);
    return { output, featureCount: null, notes: [`${x} × ${y} pixels, nodata ${nodata}`] };
  } finally {
    input.close();
  }
};

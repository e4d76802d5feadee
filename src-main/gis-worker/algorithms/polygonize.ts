import { polygonize as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { outputLayerName } from './vectorInput.js';
import { memoryLayer, saveAsGeoPackage } from './memoryLayer.js';
import { gdalProgress, openRasterInput, rasterBand } from './rasterInput.js';
import type { AlgorithmRun } from './types.js';

const FLOAT_TYPES = new Set<string>([gdal.GDT_Float32, gdal.GDT_Float64]);
/** Beyond this many pixels a polygonize of a continuous raster would not end in reasonable time. */
const MAX_FLOAT_PIXELS = 4_000_000;

/** gdal_polygonize through GDAL's own polygonizer, with the band's mask so nodata stays out. */
export const runPolygonize: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const { path, layerName } = outputLayerName(output);
  const input = await openRasterInput(p.input, 'input');
  try {
    const band = rasterBand(input, p.band);
    const useFloats = FLOAT_TYPES.has(band.dataType ?? '');
    const { x, y } = input.ds.rasterSize;
    if (useFloats && x * y > MAX_FLOAT_PIXELS) {
      throw new BadInputError(
        `${input.path} holds continuous values (${band.dataType}, ${x} × ${y} pixels): polygonizing it would give about one polygon per pixel. ` +
          'Reclassify it first with raster_calculator (e.g. where(A1 > 500, 2, 1)), then polygonize the classes.',
      );
    }
    throwIfCancelled(ctx.signal);
    const mem = memoryLayer(layerName, input.ds.srs, gdal.wkbPolygon);
    try {
      mem.layer.fields.add(new gdal.FieldDefn(p.field, useFloats ? gdal.OFTReal : gdal.OFTInteger));
      const mask = band.getMaskBand();
      try {
        await gdal.polygonizeAsync({
          src: band,
          dst: mem.layer,
          ...(mask ? { mask } : {}),
          pixValField: 0,
          connectedness: p.connectedness,
          useFloats,
          ...gdalProgress(ctx, 'Polygonizing', 0, 0.8),
        });
      } catch (err) {
        throw new BadInputError(`Cannot polygonize ${input.path}: ${gdalReason(err, input.path)}`);
      }
      throwIfCancelled(ctx.signal);
      const featureCount = await saveAsGeoPackage(mem.ds, layerName, path, ctx, 'Writing polygons');
      ctx.progress(1, `${featureCount.toLocaleString('en-US')} polygons`);
      return { output, featureCount, notes: [] };
    } finally {
      mem.ds.close();
    }
  } finally {
    input.close();
  }
};

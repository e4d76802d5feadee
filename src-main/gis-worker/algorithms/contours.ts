import type { RasterBand } from 'gdal-async';
import { contours as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { outputLayerName } from './vectorInput.js';
import { memoryLayer, saveAsGeoPackage } from './memoryLayer.js';
import { gdalProgress, openRasterInput, rasterBand } from './rasterInput.js';
import type { AlgorithmRun } from './types.js';

/** gdal_contour through GDAL's own contour generator: lines at base + k × interval, nodata skipped. */
export const runContours: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const { path, layerName } = outputLayerName(output);
  const input = await openRasterInput(p.input, 'input');
  try {
    const band = rasterBand(input, p.band);
    throwIfCancelled(ctx.signal);
    const levels = levelCount(valueRange(band), p.interval, p.base);
    if (levels > 10_000) {
      throw new BadInputError(
        `An interval of ${p.interval} gives about ${levels.toLocaleString('en-US')} contour levels over this raster's value range; choose a larger interval`,
      );
    }
    const mem = memoryLayer(layerName, input.ds.srs, gdal.wkbLineString);
    try {
      mem.layer.fields.add(new gdal.FieldDefn('id', gdal.OFTInteger));
      mem.layer.fields.add(new gdal.FieldDefn(p.attribute, gdal.OFTReal));
      const nodata = band.noDataValue;
      try {
        await gdal.contourGenerateAsync({
          src: band,
          dst: mem.layer,
          interval: p.interval,
          offset: p.base,
          ...(nodata === null ? {} : { nodata }),
          idField: 0,
          elevField: 1,
          ...gdalProgress(ctx, 'Tracing contour lines', 0, 0.8),
        });
      } catch (err) {
        throw new BadInputError(`Cannot trace contours of ${input.path}: ${gdalReason(err, input.path)}`);
      }
      throwIfCancelled(ctx.signal);
      const featureCount = await saveAsGeoPackage(mem.ds, layerName, path, ctx, 'Writing contour lines');
      ctx.progress(1, `${featureCount.toLocaleString('en-US')} contour lines`);
      return { output, featureCount, notes: featureCount === 0 ? [`No value of the raster crosses a level base + k × ${p.interval}`] : [] };
    } finally {
      mem.ds.close();
    }
  } finally {
    input.close();
  }
};

/** The band's value range from GDAL's approximate statistics (overviews or a sample), if any. */
function valueRange(band: RasterBand): { min: number; max: number } | null {
  try {
    return band.getStatistics(true, true) as { min: number; max: number };
  } catch {
    return null; // all nodata: no level to trace, GDAL's contouring says so itself
  }
}

/** Approximate number of levels in the band's value range. */
function levelCount(stats: { min: number; max: number } | null, interval: number, base: number): number {
  if (!stats || !Number.isFinite(stats.min) || !Number.isFinite(stats.max)) return 0;
  return Math.floor((stats.max - base) / interval) - Math.ceil((stats.min - base) / interval) + 1;
}

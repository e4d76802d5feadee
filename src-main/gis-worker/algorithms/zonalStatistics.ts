import type { CoordinateTransformation, Feature, Geometry, SpatialReference } from 'gdal-async';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { zonalStatistics as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { memoryLayer, saveAsGeoPackage } from './memoryLayer.js';
import { openRasterInput, rasterBand } from './rasterInput.js';
import { ZoneStatistics, type PixelStats } from './rasterStats.js';
import type { AlgorithmRun } from './types.js';
import { openVectorInput, outputLayerName, type VectorInput } from './vectorInput.js';

const POINT_OR_LINE = /POINT|LINE|CURVE(?!POLYGON)/i;

/**
 * Per zone: the polygon is reprojected to the raster's CRS and GDAL's rasterizer marks the pixels
 * whose centre is inside (the rule of gdalwarp -cutline), so overlapping zones each get all of
 * theirs. The output is a copy of the zones (their own CRS) with the statistics as new fields.
 */
export const runZonalStatistics: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const { path, layerName } = outputLayerName(output);
  const zones = await openVectorInput(p.zones, 'zones');
  try {
    const geomName = gdal.Geometry.getName(zones.layer.geomType);
    if (POINT_OR_LINE.test(geomName))
      throw new BadInputError(`The zones of ${zones.path} are ${geomName.toLowerCase()}s; zonal statistics need polygons`);
    const names = p.stats.map((s) => `${p.prefix}${s}`);
    const existing = new Set(zones.layer.fields.getNames().map((n) => n.toLowerCase()));
    const clash = names.find((n) => existing.has(n.toLowerCase()));
    if (clash) throw new BadInputError(`${zones.path} already has a field '${clash}'; choose another prefix`);

    const raster = await openRasterInput(p.raster, 'raster');
    const mem = memoryLayer(layerName, zones.srs, zones.layer.geomType);
    let stats: ZoneStatistics | null = null;
    try {
      const band = rasterBand(raster, p.band);
      const gt = raster.ds.geoTransform;
      if (!gt || gt[2] !== 0 || gt[4] !== 0) {
        throw new BadInputError(`${raster.path} is not a north-up georeferenced raster; warp it first (processing_run warp)`);
      }
      const toRaster = transformation(zones, raster.ds.srs, raster.path);
      stats = new ZoneStatistics(band, raster.ds, { signal: ctx.signal, allTouched: p.all_touched });
      for (const field of zones.layer.fields) mem.layer.fields.add(field);
      for (const [i, s] of p.stats.entries())
        mem.layer.fields.add(new gdal.FieldDefn(names[i]!, s === 'count' ? gdal.OFTInteger64 : gdal.OFTReal));

      const total = zones.layer.features.count() || 1;
      let done = 0;
      let empty = 0;
      for (let f: Feature | null = zones.layer.features.first(); f; f = zones.layer.features.next()) {
        const copy = new gdal.Feature(mem.layer);
        copy.setFrom(f);
        const result = await zoneStats(stats, f.getGeometry(), toRaster);
        if (result.count === 0) empty++;
        for (const [j, s] of p.stats.entries()) {
          const value = result[s];
          if (value === null) copy.fields.set(names[j]!, null);
          else copy.fields.set(names[j]!, value);
        }
        mem.layer.features.add(copy);
        done++;
        ctx.progress((0.9 * done) / total, `Zone ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
        throwIfCancelled(ctx.signal);
        if (done % 16 === 0) await yieldToEvents();
      }
      const featureCount = await saveAsGeoPackage(mem.ds, layerName, path, ctx, 'Writing zones', ['-nlt', 'PROMOTE_TO_MULTI'], 0.9);
      ctx.progress(1, `Statistics of ${featureCount.toLocaleString('en-US')} zones`);
      const notes = [`Fields added: ${names.join(', ')}`];
      if (empty)
        notes.push(
          `${empty} zone(s) hold no valid pixel (outside the raster, all nodata, or smaller than a pixel): count 0, mean/min/max null`,
        );
      return { output, featureCount, notes };
    } finally {
      stats?.close();
      mem.ds.close();
      raster.close();
    }
  } finally {
    zones.close();
  }
};

/** From the zones' CRS to the raster's; null when they are the same, or one is unknown (taken as is). */
function transformation(zones: VectorInput, rasterSrs: SpatialReference | null, rasterPath: string): CoordinateTransformation | null {
  if (!zones.srs || !rasterSrs || zones.srs.isSame(rasterSrs)) return null;
  try {
    return new gdal.CoordinateTransformation(zones.srs, rasterSrs);
  } catch {
    throw new BadInputError(`The zones of ${zones.path} cannot be transformed to the CRS of ${rasterPath}`);
  }
}

async function zoneStats(stats: ZoneStatistics, geometry: Geometry | null, toRaster: CoordinateTransformation | null): Promise<PixelStats> {
  if (!geometry || geometry.isEmpty()) return { count: 0, sum: 0, mean: null, min: null, max: null };
  const g = geometry.clone();
  if (toRaster) g.transform(toRaster);
  return stats.within([g]);
}

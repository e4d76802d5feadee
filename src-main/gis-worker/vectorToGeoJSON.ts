import { looksLikeDegrees } from './crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import { layerExtent } from './layerExtent.js';
import { layerSrs } from './layerSrs.js';
import { openSource } from './openSource.js';
import type { ProgressFn } from './progressThrottle.js';
import { releaseVsimem, vsimemPath } from './vsimem.js';

/**
 * All features of a vector source in EPSG:4326 (lon/lat) as GeoJSON text, written by GDAL's
 * own GeoJSON driver: it keeps NULL geometries as `null`, writes dates as ISO 8601 and drops
 * non-finite numbers, so the text is valid JSON MapLibre can take as is.
 */
export async function vectorToGeoJSON(source: string, signal?: AbortSignal, progress?: ProgressFn): Promise<string> {
  const opened = await openSource(source);
  if (opened.kind !== 'vector') {
    opened.ds.close();
    throw new BadInputError(`${opened.path} is a raster; it has no features to draw as GeoJSON`);
  }
  const out = vsimemPath('geojson');
  try {
    throwIfCancelled(signal);
    const { layer, path } = opened;
    // Feature ids travel as the GeoJSON `id`: identify and selection name features by them.
    const args = ['-f', 'GeoJSON', '-lco', 'RFC7946=YES', '-preserve_fid'];
    if (await layerSrs(opened.ds, layer.name)) {
      args.push('-t_srs', 'EPSG:4326');
    } else if (!looksLikeDegrees(layerExtent(layer))) {
      throw new BadInputError(
        `${path} has no coordinate reference system (for a shapefile: the .prj file is missing), ` +
          'and its coordinates are not longitude/latitude, so it cannot be placed on the map',
      );
    }
    // Without a CRS but with degree-like values (CSV lon/lat, a shapefile missing its .prj)
    // the coordinates are written unchanged: they already are what the map expects.
    args.push(layer.name);

    let dst;
    try {
      const options = progress ? { progress_cb: (f: number) => progress(Math.min(1, Math.max(0, f)), 'Reading features') } : undefined;
      dst = await gdal.vectorTranslateAsync(out, opened.ds, args, options);
    } catch (err) {
      throw new BadInputError(`Cannot read the features of ${path}: ${gdalReason(err, path)}`);
    }
    dst.close();
    throwIfCancelled(signal);
    const bytes = releaseVsimem(out);
    if (!bytes) throw new Error(`GDAL wrote no GeoJSON for ${path}`);
    return bytes.toString('utf8');
  } finally {
    releaseVsimem(out);
    opened.ds.close();
  }
}

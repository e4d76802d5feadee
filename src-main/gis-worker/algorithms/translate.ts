import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { convertFormat, simplify } from '../../../src-shared/processing/geometryAlgorithms.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { flatGeometryType } from '../geometryType.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import { openVectorInput, outputLayerName, type VectorInput } from './vectorInput.js';

/** Simplify and convert: straight ogr2ogr (GDAL's vectorTranslate) from the source, with its own progress. */

async function translate(input: VectorInput, dest: string, args: string[], ctx: AlgorithmContext, message: string): Promise<number> {
  throwIfCancelled(ctx.signal);
  let out;
  try {
    out = await gdal.vectorTranslateAsync(dest, input.ds, [...args, input.layer.name], {
      progress_cb: (f: number) => ctx.progress(Math.min(0.98, Math.max(0, f)), message),
    });
  } catch (err) {
    throw new BadInputError(`Cannot write ${dest} from ${input.path}: ${gdalReason(err, input.path)}`);
  }
  out.close();
  // Counted from the file as written (a GeoJSON being written reports 0 features).
  const written = await gdal.openAsync(dest, 'r');
  try {
    return written.layers.get(0).features.count();
  } finally {
    written.close();
  }
}

export const runSimplify: AlgorithmRun = async (params, output, ctx) => {
  const p = simplify.params.extend({ input: z.string() }).parse(params);
  const input = await openVectorInput(p.input, 'input');
  try {
    if (input.srs?.isGeographic()) {
      throw new BadInputError(
        `${input.path} is in degrees (a geographic CRS); a simplify tolerance needs a projected CRS in metres: reproject first`,
      );
    }
    const { path, layerName } = outputLayerName(output);
    // ogr2ogr -simplify is GEOS's topology-preserving Douglas-Peucker, feature by feature.
    const featureCount = await translate(
      input,
      path,
      ['-f', 'GPKG', '-nln', layerName, '-simplify', String(p.tolerance)],
      ctx,
      'Simplifying',
    );
    ctx.progress(1, `Simplified ${featureCount.toLocaleString('en-US')} features`);
    return { output, featureCount, notes: [] };
  } finally {
    input.close();
  }
};

const FORMATS = {
  gpkg: { driver: 'GPKG', ext: '.gpkg', sidecars: [] as string[] },
  geojson: { driver: 'GeoJSON', ext: '.geojson', sidecars: [] },
  shapefile: { driver: 'ESRI Shapefile', ext: '.shp', sidecars: ['.shx', '.dbf', '.prj', '.cpg'] },
  flatgeobuf: { driver: 'FlatGeobuf', ext: '.fgb', sidecars: [] },
  csv: { driver: 'CSV', ext: '.csv', sidecars: [] },
} as const;

/**
 * The host chose `<outputs>/<name>.gpkg`; other formats go beside it under the same name with
 * their own extension (a new one, never an existing file).
 */
function destinationFor(gpkgPath: string, format: keyof typeof FORMATS): string {
  const { ext, sidecars } = FORMATS[format];
  const base = gpkgPath.replace(/\.gpkg$/i, '');
  const taken = (stem: string): boolean => [ext, ...sidecars].some((e) => existsSync(`${stem}${e}`));
  let stem = base;
  for (let i = 2; taken(stem); i++) stem = `${base}-${i}`;
  return `${stem}${ext}`;
}

export const runConvertFormat: AlgorithmRun = async (params, output, ctx) => {
  const p = convertFormat.params.extend({ input: z.string() }).parse(params);
  const input = await openVectorInput(p.input, 'input');
  const { path, layerName } = outputLayerName(output);
  const format = FORMATS[p.format];
  const dest = p.format === 'gpkg' ? path : destinationFor(path, p.format);
  try {
    const flat = flatGeometryType(input.layer.geomType);
    const args = ['-f', format.driver, '-nln', layerName];
    const notes: string[] = [];
    if (p.format === 'geojson') {
      args.push('-lco', 'RFC7946=YES');
      if (input.srs && !isWgs84(input.srs)) notes.push('GeoJSON is WGS 84 lon/lat (RFC 7946): the coordinates were reprojected');
    } else if (p.format === 'shapefile') {
      args.push('-lco', 'ENCODING=UTF-8', '-nlt', 'PROMOTE_TO_MULTI');
      const long = input.layer.fields.getNames().filter((n) => Buffer.byteLength(n) > 10);
      if (long.length) notes.push(`Shapefile field names are at most 10 characters; shortened: ${long.join(', ')}`);
    } else if (p.format === 'csv') {
      const points = flat === 1;
      if (flat !== 100) args.push('-lco', points ? 'GEOMETRY=AS_XY' : 'GEOMETRY=AS_WKT');
      notes.push(
        `CSV stores no CRS${input.srs ? ' (the coordinates are in the layer CRS)' : ''}; geometry as ${points ? 'X and Y columns' : 'WKT text'}`,
      );
    }
    const featureCount = await translate(input, dest, args, ctx, `Writing ${p.format}`);
    ctx.progress(1, `Wrote ${featureCount.toLocaleString('en-US')} features`);
    return { output: p.format === 'gpkg' ? output : dest, featureCount, notes };
  } catch (err) {
    // A half-written file is not left in the outputs folder (the host removes only the .gpkg).
    if (dest !== path) await Promise.all([format.ext, ...format.sidecars].map((e) => rm(dest.replace(/\.[^.]+$/, e), { force: true })));
    throw err;
  } finally {
    input.close();
  }
};

function isWgs84(srs: { getAuthorityCode(target: string | null): string; isGeographic(): boolean }): boolean {
  try {
    return srs.isGeographic() && srs.getAuthorityCode(null) === '4326';
  } catch {
    return false;
  }
}

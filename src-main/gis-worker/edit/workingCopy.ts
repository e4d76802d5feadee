import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Dataset } from 'gdal-async';
import { formatSource, parseSource } from '../../../src-shared/domain/source.js';
import type { LayerInfo } from '../../../src-shared/domain/layer.js';
import { describeSource } from '../describeSource.js';
import { BadInputError, gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';
import { flatGeometryType } from '../geometryType.js';
import { openSource } from '../openSource.js';
import { guardSource } from '../sourceGuard.js';
import { ensureJournal } from './editJournal.js';

/**
 * The editable working copy of a vector layer: a new GeoPackage holding that one layer with
 * its FIDs kept (so ids the person or the model already saw still name the same features),
 * the FID column called `fid` and the geometry `geom` (what the edit SQL and the expression
 * checker expect), and an empty edit journal. The original is only read.
 */
export async function createWorkingCopy(
  source: string,
  output: string,
  progress?: (fraction: number, message: string) => void,
): Promise<{ source: string; table: string; info: LayerInfo }> {
  if (existsSync(output)) throw new BadInputError(`${output} already exists; a working copy is never written over a file.`);
  const opened = await openSource(source);
  if (opened.kind !== 'vector') {
    opened.ds.close();
    throw new BadInputError('Only vector layers and tables can be edited.');
  }
  const table = opened.layer.name;
  await mkdir(dirname(output), { recursive: true });
  const args = ['-f', 'GPKG', '-preserve_fid', '-lco', 'FID=fid', '-lco', 'GEOMETRY_NAME=geom', '-nln', table];
  if (copyGeometryType(opened.ds.driver.description, opened.layer.geomType) !== opened.layer.geomType)
    args.push('-nlt', 'PROMOTE_TO_MULTI');
  let copy: Dataset | null = null;
  try {
    copy = await gdal.vectorTranslateAsync(output, opened.ds, [...args, table], {
      progress_cb: (f: number) => progress?.(Math.min(1, Math.max(0, f)), 'Copying the layer for editing'),
    });
    ensureJournal(copy);
  } catch (err) {
    throw new BadInputError(`The working copy could not be made: ${gdalReason(err)}`);
  } finally {
    copy?.close();
    opened.ds.close();
  }
  const copySource = formatSource({ path: output, sublayer: table });
  return { source: copySource, table, info: await describeSource(copySource) };
}

/**
 * The geometry type a layer's working copy has: its own, except that a Shapefile says "Polygon"
 * (or "LineString") for a layer that holds multi-part shapes too, so its copy takes the Multi type.
 */
export function copyGeometryType(driver: string, geomType: number): number {
  if (driver !== 'ESRI Shapefile') return geomType;
  const flat = flatGeometryType(geomType);
  return flat === gdal.wkbPolygon ? gdal.wkbMultiPolygon : flat === gdal.wkbLineString ? gdal.wkbMultiLineString : geomType;
}

/** Opens a working copy for writing: a GeoPackage the worker may open, and its table. */
export function openWorkingCopy(source: string): { ds: Dataset; table: string; path: string } {
  const { path, sublayer } = parseSource(guardSource(source));
  if (!/\.gpkg$/i.test(path) || !sublayer) throw new BadInputError(`${source} is not a working copy (a GeoPackage layer).`);
  let ds: Dataset;
  try {
    ds = gdal.open(path, 'r+');
  } catch (err) {
    throw new BadInputError(`The working copy ${path} could not be opened: ${gdalReason(err, path)}`);
  }
  if (!ds.layers.get(sublayer)) {
    ds.close();
    throw new BadInputError(`The working copy ${path} has no layer '${sublayer}'.`);
  }
  return { ds, table: sublayer, path };
}

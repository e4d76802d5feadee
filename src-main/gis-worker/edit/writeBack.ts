import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Dataset } from 'gdal-async';
import { parseSource } from '../../../src-shared/domain/source.js';
import type { LayerInfo } from '../../../src-shared/domain/layer.js';
import { describeSource } from '../describeSource.js';
import { BadInputError, gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';
import { guardSource } from '../sourceGuard.js';
import { openWorkingCopy } from './workingCopy.js';

/** Formats whose files can be rewritten from the working copy without losing what they can hold. */
const WRITABLE = new Set(['GPKG', 'ESRI Shapefile', 'GeoJSON', 'FlatGeobuf']);

/**
 * Writes a working copy's layer over its original (the destructive step the person approves):
 * first the original's files are copied to `backupDir` (a Shapefile's every sidecar, a
 * GeoPackage's -wal/-shm too), then a GeoPackage's table is replaced in place, and any other
 * format is written beside the original under a temporary name and renamed over it — so a
 * failure half-way leaves the original as it was.
 */
export async function writeBack(
  copySource: string,
  originalSource: string,
  backupDir: string,
): Promise<{ backup: string[]; featureCount: number; info: LayerInfo }> {
  const { path, sublayer } = parseSource(guardSource(originalSource));
  let original: Dataset;
  try {
    original = gdal.open(path);
  } catch (err) {
    throw new BadInputError(`The original ${path} could not be opened: ${gdalReason(err, path)}`);
  }
  const driver = original.driver.description;
  const layerName = sublayer ?? original.layers.get(0)?.name;
  original.close();
  if (!WRITABLE.has(driver) || !layerName)
    throw new BadInputError(`Edits cannot be written back to a ${driver} file; export the working copy instead (it is a GeoPackage).`);

  const backup = await backUp(path, backupDir);
  const copy = openWorkingCopy(copySource);
  const featureCount = copy.ds.layers.get(copy.table).features.count();
  const args = ['-preserve_fid', '-nln', layerName, copy.table];
  try {
    if (driver === 'GPKG') {
      const target = gdal.open(path, 'r+');
      try {
        await gdal.vectorTranslateAsync(target, copy.ds, ['-update', '-overwrite', ...args]);
      } finally {
        target.close();
      }
    } else await replaceFile(path, driver, copy.ds, args);
  } catch (err) {
    throw new BadInputError(`Writing back to ${path} failed (the backup is in ${backupDir}): ${gdalReason(err)}`);
  } finally {
    copy.ds.close();
  }
  return { backup, featureCount, info: await describeSource(originalSource) };
}

/** The original's files (a Shapefile's sidecars, a GeoPackage's journal files), copied with a time stamp. */
async function backUp(path: string, backupDir: string): Promise<string[]> {
  await mkdir(backupDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = dirname(path);
  const stem = basename(path, extname(path));
  const names = (await readdir(dir)).filter(
    (n) =>
      n === basename(path) ||
      n.startsWith(`${basename(path)}-`) ||
      (extname(path).toLowerCase() === '.shp' && basename(n, extname(n)) === stem),
  );
  const out: string[] = [];
  for (const name of names) {
    const to = join(backupDir, `${stem}-${stamp}${name.slice(stem.length)}`);
    await copyFile(join(dir, name), to);
    out.push(to);
  }
  return out;
}

async function replaceFile(path: string, driver: string, copy: Dataset, args: string[]): Promise<void> {
  const dir = dirname(path);
  const stem = basename(path, extname(path));
  const tmpDir = join(dir, `.${stem}.mapwright-writing`);
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir);
  try {
    const out = await gdal.vectorTranslateAsync(join(tmpDir, basename(path)), copy, ['-f', driver, ...args]);
    out.close();
    for (const name of await readdir(tmpDir)) await rename(join(tmpDir, name), join(dir, name));
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}

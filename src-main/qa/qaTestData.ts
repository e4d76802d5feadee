/**
 * Small real files for the QA tests, made with GDAL's command-line tools in the test's temp
 * folder, and an independent count of a raster's nodata pixels (its text export, not our code).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gdalCli } from '../gis-worker/testSupport.js';

/** A "bow-tie": its ring crosses itself, so GEOS calls it invalid. */
const BOW_TIE = [
  [0, 0],
  [1, 1],
  [1, 0],
  [0, 1],
  [0, 0],
];
const SQUARE = [
  [2, 0],
  [3, 0],
  [3, 1],
  [2, 1],
  [2, 0],
];

/**
 * A GeoPackage layer `name` of polygons in `epsg` (coordinates offset by `at`): `valid` squares
 * and `invalid` bow-ties, in that order of fids (1…). Returns `file|layername=name`.
 */
export function polygonLayer(
  dir: string,
  name: string,
  opts: { valid: number; invalid: number; epsg: number; at?: [number, number] },
): string {
  const [dx, dy] = opts.at ?? [0, 0];
  const ring = (r: number[][], i: number) => r.map(([x, y]) => [x! + dx + i * 4, y! + dy]);
  const features = [
    ...Array.from({ length: opts.valid }, (_, i) => ring(SQUARE, i)),
    ...Array.from({ length: opts.invalid }, (_, i) => ring(BOW_TIE, i)),
  ].map((r, i) => ({ type: 'Feature', properties: { n: i + 1 }, geometry: { type: 'Polygon', coordinates: [r] } }));
  const json = path.join(dir, `${name}.geojson`);
  writeFileSync(json, JSON.stringify({ type: 'FeatureCollection', features }));
  const file = path.join(dir, `${name}.gpkg`);
  // GeoJSON is read as EPSG:4326 whatever it holds: assign the CRS meant.
  gdalCli('ogr2ogr', ['-f', 'GPKG', '-a_srs', `EPSG:${opts.epsg}`, '-nln', name, '-nlt', 'POLYGON', file, json]);
  return `${file}|layername=${name}`;
}

/** A GeoTIFF `cols` × `rows` of Byte in EPSG:32632 whose left `nodataCols` columns are nodata 0, the rest 7. */
export function rasterWithNodata(dir: string, name: string, opts: { cols: number; rows: number; nodataCols: number }): string {
  const base = path.join(dir, `${name}_base.tif`);
  gdalCli('gdal_create', [
    '-of',
    'GTiff',
    '-ot',
    'Byte',
    '-outsize',
    String(opts.cols),
    String(opts.rows),
    '-burn',
    '7',
    '-a_srs',
    'EPSG:32632',
    '-a_ullr',
    '500000',
    '5000000',
    String(500000 + opts.cols * 10),
    String(5000000 - opts.rows * 10),
    base,
  ]);
  const file = path.join(dir, `${name}.tif`);
  const calc = `numpy.where(numpy.arange(A.shape[1])[None, :] < ${opts.nodataCols}, 0, A)`;
  gdalCli('gdal_calc.py', [
    '--quiet',
    '-A',
    base,
    '--calc',
    calc,
    '--type',
    'Byte',
    '--NoDataValue',
    '0',
    '--overwrite',
    '--outfile',
    file,
  ]);
  return file;
}

/** The nodata pixels of band `band`, counted in GDAL's ASCII grid export of the file. */
export function nodataCountByText(file: string, band = 1): number {
  const text = gdalCli('gdal_translate', ['-q', '-b', String(band), '-of', 'AAIGrid', file, '/vsistdout/']);
  const lines = text.split('\n');
  const header = lines.filter((l) => /^[a-z_]/i.test(l));
  const nodataLine = header.find((l) => /^nodata_value/i.test(l));
  if (!nodataLine) return 0;
  const nodata = Number(nodataLine.trim().split(/\s+/)[1]);
  let count = 0;
  for (const line of lines) {
    if (/^[a-z_]/i.test(line)) continue;
    for (const token of line.trim().split(/\s+/)) if (token !== '' && Number(token) === nodata) count++;
  }
  return count;
}

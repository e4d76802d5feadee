/**
 * Clip of ~100k polygons: Mapwright's worker algorithm (`clip`, run through the real worker
 * process as the app runs it) against ogr2ogr's own clip (`-clipsrc <overlay> -clipsrclayer`)
 * and, when QGIS is installed, `qgis_process run native:clip` — in the same run, on the same
 * files, GeoPackage out. Every tool keeps the input's attributes and writes one feature per
 * input feature that meets the overlay.
 *
 *   npx tsx scripts/bench/clip.ts [--features 100000] [--overlay usa,circle] [--runs 1] [--keep]
 *
 * Overlays, both in the input's CRS (UTM 17N) so no tool reprojects:
 * - usa: the United States of Natural Earth's 1:110m countries (countries.fgb of the fixtures),
 *   10 polygons — the counties' pieces cut to the coastline, as the app's clip test does;
 * - circle: one 150 km circle (33 vertices) over the middle of the state, a study area that
 *   keeps about half the pieces.
 * The input is built by vectorBenchKit.ts. Times are wall-clock, best of --runs; the worker is
 * started and warmed first; qgis_process's start-up is measured apart (see buffer.ts).
 */
import path from 'node:path';
import { gdal, option, requireFixture, runWorkerBench } from './benchKit.js';
import { bestOf, findQgis, ogrPolygons, oneFeature, preparePieces, report, sqlNumber } from './vectorBenchKit.js';

const FEATURES = option('features', 100_000);
const RUNS = option('runs', 1);
const OVERLAYS = (() => {
  const i = process.argv.indexOf('--overlay');
  return (i > 0 ? process.argv[i + 1]! : 'usa,circle').split(',');
})();

/** The overlay `name` as `<dir>/<name>.gpkg`, layer `name`. */
function buildOverlay(dir: string, name: string, pieces: string): string {
  const file = path.join(dir, `${name}.gpkg`);
  if (name === 'usa') {
    gdal('ogr2ogr', [
      '-f',
      'GPKG',
      file,
      requireFixture('countries.fgb'),
      '-where',
      "id = 'USA'",
      '-t_srs',
      'EPSG:32617',
      '-nln',
      name,
      '-lco',
      'GEOMETRY_NAME=geom',
    ]);
  } else if (name === 'circle') {
    const [minX, minY, maxX, maxY] = ['MIN(ST_MinX', 'MIN(ST_MinY', 'MAX(ST_MaxX', 'MAX(ST_MaxY'].map((f) =>
      sqlNumber(pieces, `SELECT ${f}(geom)) FROM pieces`),
    ) as [number, number, number, number];
    const centre = `MakePoint(${(minX + maxX) / 2}, ${(minY + maxY) / 2})`;
    gdal('ogr2ogr', [
      '-f',
      'GPKG',
      file,
      pieces,
      '-dialect',
      'SQLite',
      '-sql',
      `SELECT ST_Buffer(${centre}, 150000, 8) AS geom`,
      '-a_srs',
      'EPSG:32617',
      '-nln',
      name,
      '-nlt',
      'POLYGON',
      '-lco',
      'GEOMETRY_NAME=geom',
    ]);
  } else {
    throw new Error(`Unknown overlay '${name}' (usa or circle)`);
  }
  const parts = sqlNumber(file, `SELECT SUM(ST_NumGeometries(geom)) FROM "${name}"`);
  const vertices = sqlNumber(file, `SELECT SUM(ST_NPoints(geom)) FROM "${name}"`);
  console.log(`Overlay ${name}: ${parts} polygon(s), ${vertices.toLocaleString('en-US')} vertices`);
  return file;
}

runWorkerBench('clip', async (dir, client) => {
  const { pieces, count } = await preparePieces(dir, FEATURES);
  const overlays = OVERLAYS.map((name) => ({ name, file: buildOverlay(dir, name, pieces) }));
  const one = oneFeature(pieces, 'pieces', path.join(dir, 'one.gpkg'));
  const qgis = findQgis((run) => run('native:clip', { INPUT: one, OVERLAY: overlays[0]!.file, OUTPUT: path.join(dir, 'qgis_one.gpkg') }));

  // Start the worker and let it load GDAL before any timing.
  await client.call('layers.describe', { source: pieces });

  for (const overlay of overlays) {
    console.log(`\n## Clip by ${overlay.name}\n`);
    const out = (side: string, run: number): string => path.join(dir, `${overlay.name}_${side}_${run}.gpkg`);
    const t = await bestOf(RUNS, {
      ours: (run) =>
        client.call('processing.run', {
          algorithm: 'clip',
          params: { input: `${pieces}|layername=pieces`, overlay: `${overlay.file}|layername=${overlay.name}` },
          output: `${out('ours', run)}|layername=clipped`,
        }),
      ogr: (run) =>
        ogrPolygons(out('ogr2ogr', run), [pieces, 'pieces'], 'clipped', ['-clipsrc', overlay.file, '-clipsrclayer', overlay.name]),
      qgis: qgis ? (run) => qgis.run('native:clip', { INPUT: pieces, OVERLAY: overlay.file, OUTPUT: out('qgis', run) }) : null,
    });
    report(
      `clip of ${count.toLocaleString('en-US')} polygons by ${overlay.name}`,
      { ours: '`clip` algorithm', ogr: 'ogr2ogr -clipsrc', qgis: 'qgis_process native:clip' },
      t,
      qgis,
      (side) => out(side, RUNS),
    );
  }
});

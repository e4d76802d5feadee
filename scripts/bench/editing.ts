/**
 * Editing a large layer through its working copy (issue #14): what the copy, the journal and
 * undo cost. Each step of the worker (the real process, as the app runs it) is timed against
 * GDAL doing the same work without a journal, in the same run on the same data:
 *   - making the working copy            vs ogr2ogr copying the layer to a GeoPackage;
 *   - a calculation over every feature   vs ogrinfo's plain UPDATE on a copy;
 *   - deleting 1 % by a filter           vs ogrinfo's plain DELETE on a copy;
 *   - undoing both (journal replay)      (no baseline: GDAL has no undo).
 *
 *   npx tsx scripts/bench/editing.ts [--features 1000000] [--keep]
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { makePointsGpkg } from '../../e2e/support/bigData.js';
import { gdal, option, runWorkerBench, seconds, timeIt } from './benchKit.js';

const FEATURES = option('features', 1_000_000);

runWorkerBench('editing', async (dir, worker) => {
  const original = path.join(dir, 'points.gpkg');
  await makePointsGpkg(original, FEATURES);
  console.log(`${FEATURES.toLocaleString('en')} points (GeoPackage, layer points)`);
  await worker.call('layers.describe', { source: original }); // warm the worker

  const rows: [string, number, number | null][] = [];
  const copy = path.join(dir, 'work.gpkg');
  const plain = path.join(dir, 'plain.gpkg');
  let made: { source: string } | undefined;
  const ours = await timeIt(async () => (made = await worker.call('edit.create_copy', { source: original, output: copy })));
  const ogr = await timeIt(() => gdal('ogr2ogr', ['-f', 'GPKG', '-preserve_fid', plain, original, 'points']));
  rows.push(['working copy', ours, ogr]);

  const source = made!.source;
  const calc = await timeIt(() =>
    worker.call('edit.apply', { source, tx: 1, op: { kind: 'calculate_field', name: 'value', expression: 'value * 2', where: null } }),
  );
  const calcPlain = await timeIt(() => gdal('ogrinfo', ['-q', '-sql', 'UPDATE points SET value = value * 2', plain]));
  rows.push(['calculate every feature', calc, calcPlain]);

  const del = await timeIt(() =>
    worker.call('edit.apply', { source, tx: 2, op: { kind: 'delete_features', target: { where: 'fid % 100 = 0' } } }),
  );
  const delPlain = await timeIt(() => gdal('ogrinfo', ['-q', '-sql', 'DELETE FROM points WHERE fid % 100 = 0', plain]));
  rows.push(['delete 1 % by a filter', del, delPlain]);

  const undo = await timeIt(() => worker.call('edit.undo', { source, txs: [1, 2] }));
  rows.push(['undo both (journal replay)', undo, null]);
  copyFileSync(copy, path.join(dir, 'after-undo.gpkg'));

  console.log('\n| step | worker (journalled) | GDAL, no journal | ratio |\n|---|---|---|---|');
  for (const [step, w, g] of rows)
    console.log(`| ${step} | ${seconds(w)} | ${g === null ? '—' : seconds(g)} | ${g === null ? '—' : `${(w / g).toFixed(2)}×`} |`);
});

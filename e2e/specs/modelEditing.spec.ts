import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useAppSession } from '../support/appSession.js';
import { repoRoot } from '../support/webHost.js';

const NC = join(repoRoot, '..', 'shared', 'fixtures', 'gis', 'nc.gpkg');
const GDAL_ENV = { ...process.env, GDAL_PAM_ENABLED: 'NO' };
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** Feature count of a GeoPackage layer, by ogrinfo (GDAL's own tool, not the app). */
function ogrCount(path: string): number {
  return Number(/Feature Count: (\d+)/.exec(execFileSync('ogrinfo', ['-so', path, 'nc'], { encoding: 'utf8', env: GDAL_ENV }))![1]);
}

/** A point inside each of the first three counties, by SpatiaLite through ogrinfo. */
function insidePoints(path: string): [number, number][] {
  const out = execFileSync(
    'ogrinfo',
    [
      '-q',
      '-sql',
      'SELECT fid, ST_X(ST_PointOnSurface(geom)) AS x, ST_Y(ST_PointOnSurface(geom)) AS y FROM nc WHERE fid IN (1, 2, 3)',
      path,
    ],
    { encoding: 'utf8', env: GDAL_ENV },
  );
  const xs = [...out.matchAll(/x \(Real\) = (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ys = [...out.matchAll(/y \(Real\) = (-?[\d.]+)/g)].map((m) => Number(m[1]));
  return xs.map((x, i) => [x, ys[i]!]);
}

/**
 * Editing driven by the model, in Chromium (issue #14): it deletes three counties after the
 * dialog (which shows the rows), the map loses them; Undo brings them back — checked in pixels
 * on the map and by GDAL counting the working copy; write-back asks as destructive and keeps a
 * backup. The original file's bytes never change until write-back.
 */
describe('the model edits a layer, and undo restores the data', { skip: !existsSync(NC) }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-edit-e2e-' });
  let dir: string;
  let original: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mapwright-edit-src-'));
    original = join(dir, 'nc.gpkg');
    // Its one layer is named "nc" here, as a person's file would be.
    execFileSync('ogr2ogr', ['-nln', 'nc', original, NC], { env: GDAL_ENV });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('delete 3 after approval → gone from the map; Undo → back (pixels and count); write-back → destructive, backup kept', async () => {
    const { app } = await session.openApp();
    const model = session.model;
    const originalHash = sha(original);
    const points = insidePoints(original);
    assert.equal(points.length, 3);

    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path: original, name: 'nc' } }] }, { text: 'Loaded.' }]);
    await app.askAgent('load nc');
    await app.approvePending();
    await app.waitForLayer('nc');
    await app.waitForRunIdle();
    await app.fitMap([-81.8, 36.0, -80.3, 36.7]);
    await app.waitForMapIdle();
    const filled = await app.mapPixelsAt(points);

    model.script([
      { toolCalls: [{ name: 'skills_load_skill', arguments: { name: 'editing' } }] },
      { toolCalls: [{ name: 'edit_delete_features', arguments: { layer: 'nc', fids: [1, 2, 3] } }] },
      { text: 'Deleted the three counties.' },
    ]);
    await app.askAgent('delete counties 1, 2 and 3');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /3 rows in all/);
    assert.match(dialog.text, /Ashe/, 'the dialog shows the rows that go');
    assert.match(dialog.text, /original file is never changed/);
    await app.page.getByTestId('approval-sample').waitFor();
    await app.screenshot('edit-1-delete-dialog');
    await app.approvePending();
    await app.waitForMessage('assistant', /Deleted the three counties/);
    await app.waitForMapIdle();
    const copy = readdirSync(join(session.home, 'projects', 'untitled-outputs', 'edits')).map((n) =>
      join(session.home, 'projects', 'untitled-outputs', 'edits', n),
    )[0]!;
    assert.equal(ogrCount(copy), 97);
    assert.equal(sha(original), originalHash, 'the original is not written');
    const deleted = await waitForPixels(app, points, (px) => px.every((p, i) => differs(p, filled[i]!)));
    await app.screenshot('edit-2-deleted');

    await app.undo();
    await app.waitForMessage('notice', /Undone: Delete 3 feature/);
    const restored = await waitForPixels(app, points, (px) => px.every((p, i) => !differs(p, filled[i]!)));
    assert.ok(deleted.every((p, i) => differs(p, restored[i]!)));
    assert.equal(ogrCount(copy), 100, 'the working copy has its features back');
    await app.screenshot('edit-3-undone');

    // Edit again, then write back: destructive, always asks, backup kept.
    model.script([
      { toolCalls: [{ name: 'edit_delete_features', arguments: { layer: 'nc', fids: [50] } }] },
      { toolCalls: [{ name: 'edit_write_back', arguments: { layer: 'nc' } }] },
      { text: 'Written back.' },
    ]);
    await app.askAgent('delete county 50 and save it to the file');
    await app.approvePending();
    const writeBack = await app.waitForApproval();
    assert.match(writeBack.text, /destructive/i);
    assert.match(writeBack.text, /Overwrites/);
    assert.equal(await app.page.getByTestId('approval-remember').count(), 0, 'a destructive call is never remembered');
    await app.screenshot('edit-4-write-back-dialog');
    await app.approvePending();
    await app.waitForMessage('assistant', /Written back/);
    assert.equal(ogrCount(original), 99);
    const backups = join(session.home, 'projects', 'untitled-outputs', 'backups');
    const kept = readdirSync(backups);
    assert.equal(kept.length, 1);
    assert.equal(sha(join(backups, kept[0]!)), originalHash, 'the backup is the original as it was');
  });
});

type Rgba = [number, number, number, number];
const differs = (a: Rgba, b: Rgba) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 30;

async function waitForPixels(
  app: { mapPixelsAt(p: readonly (readonly [number, number])[]): Promise<Rgba[]>; waitForMapIdle(): Promise<void> },
  points: [number, number][],
  ok: (px: Rgba[]) => boolean,
): Promise<Rgba[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await app.waitForMapIdle();
    const px = await app.mapPixelsAt(points);
    if (ok(px)) return px;
    if (Date.now() > deadline) throw new Error(`map pixels did not change as expected: ${JSON.stringify(px)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

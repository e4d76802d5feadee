import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { EditOp } from '../../../src-shared/edit/editOps.js';
import type { GisWorkerClient } from '../../worker-host/GisWorkerClient.js';
import { fixture, rejectsAsBadInput, skipReason, workerSuite } from '../testSupport.js';
import { featureChecksum, fileHash, ogrCount } from './editTestSupport.js';

describe('editing through a working copy (GIS worker)', { skip: skipReason }, () => {
  let worker!: GisWorkerClient;
  const { out } = workerSuite((c) => (worker = c), 'mapwright-edit-');

  let n = 0;
  async function copyOf(name: string, sublayer?: string) {
    const k = ++n;
    const original = out(`orig${k}-${name}`);
    for (const ext of name.endsWith('.shp') ? ['.shp', '.shx', '.dbf', '.prj'] : ['']) {
      const src = fixture(name.replace(/\.shp$/, ext || '.shp'));
      if (existsSync(src)) copyFileSync(src, original.replace(/\.shp$/, ext || '.shp'));
    }
    const source = sublayer ? `${original}|layername=${sublayer}` : original;
    const copy = await worker.call('edit.create_copy', { source, output: out(`work${k}-${name}.gpkg`) });
    return { original, source, copy, path: out(`work${k}-${name}.gpkg`) };
  }

  it('copies a layer with its FIDs and leaves the original unread-only bytes unchanged', async () => {
    const { original, copy, path } = await copyOf('nc.gpkg');
    const before = fileHash(original);
    const a = featureChecksum(original);
    const b = featureChecksum(path, copy.table);
    assert.equal(b.count, 100);
    assert.equal(copy.info.featureCount, 100);
    assert.equal(a.hash, b.hash, 'same FIDs, geometries and attributes');
    assert.equal(fileHash(original), before);
  });

  it('journals each edit so undo restores the exact data, step by step, and the original never changes', async () => {
    const { original, copy, path } = await copyOf('nc.gpkg');
    const originalHash = fileHash(original);
    const ops: EditOp[] = [
      { kind: 'delete_features', target: { where: "NAME IN ('Ashe', 'Alleghany', 'Surry')" } },
      {
        kind: 'update_features',
        target: { fids: [10, 11] },
        set: { NAME: 'O\'Brien "quoted"', BIR74: 1.2345678901234567 },
        geometry: null,
        crs: 'layer',
      },
      {
        kind: 'add_features',
        features: [{ geometry: { wkt: 'POLYGON ((-79 35.5, -78.9 35.5, -78.9 35.6, -79 35.5))' }, properties: { NAME: 'New', BIR74: 7 } }],
        crs: 'EPSG:4326',
      },
      { kind: 'add_field', name: 'density', type: 'real', default: null },
      { kind: 'calculate_field', name: 'density', expression: 'BIR74 / AREA', where: 'BIR74 > 1000' },
      { kind: 'rename_field', from: 'density', to: 'births_per_area' },
      { kind: 'change_type', name: 'CNTY_ID', type: 'text' },
      { kind: 'delete_field', name: 'PERIMETER' },
      {
        kind: 'update_features',
        target: { fids: [20] },
        set: {},
        geometry: {
          geojson: {
            type: 'Polygon',
            coordinates: [
              [
                [-80, 35],
                [-79.9, 35],
                [-79.9, 35.1],
                [-80, 35],
              ],
            ],
          },
        },
        crs: 'EPSG:4326',
      },
    ];
    const states = [featureChecksum(path, copy.table)];
    for (const [i, op] of ops.entries()) {
      const r = await worker.call('edit.apply', { source: copy.source, tx: i + 1, op });
      states.push(featureChecksum(path, copy.table));
      assert.notEqual(states[i + 1]!.hash, states[i]!.hash, `${op.kind} changed the data`);
      if (op.kind === 'delete_features') assert.equal(r.changed, 3);
    }
    const final = featureChecksum(path, copy.table);
    assert.equal(final.count, 98);
    assert.ok(final.fields.includes('births_per_area') && !final.fields.includes('PERIMETER'));
    for (let i = ops.length; i >= 1; i--) {
      await worker.call('edit.undo', { source: copy.source, txs: [i] });
      assert.deepEqual(featureChecksum(path, copy.table), states[i - 1], `undo of ${ops[i - 1]!.kind} restores the data`);
    }
    // Undoing again finds nothing to do.
    assert.equal((await worker.call('edit.undo', { source: copy.source, txs: [1, 2, 3] })).statements, 0);
    assert.equal(fileHash(original), originalHash);
  });

  it('undoes several transactions at once (revert a turn), newest first', async () => {
    const { copy, path } = await copyOf('nc.gpkg');
    const start = featureChecksum(path, copy.table);
    await worker.call('edit.apply', {
      source: copy.source,
      tx: 5,
      op: { kind: 'update_features', target: { where: 'fid < 30' }, set: { NAME: 'x' }, geometry: null, crs: 'layer' },
    });
    await worker.call('edit.apply', { source: copy.source, tx: 6, op: { kind: 'delete_features', target: { where: 'fid < 40' } } });
    assert.equal(featureChecksum(path, copy.table).count, 61);
    await worker.call('edit.undo', { source: copy.source, txs: [5, 6] });
    assert.deepEqual(featureChecksum(path, copy.table), start);
  });

  it('previews counts and rows before/after without writing', async () => {
    const { original, source } = await copyOf('nc.gpkg');
    const before = fileHash(original);
    const del = await worker.call('edit.preview', { source, op: { kind: 'delete_features', target: { where: 'BIR74 > 10000' } } });
    assert.equal(del.sample.total, ogrCount(source, 'BIR74 > 10000'));
    assert.equal(del.sample.rows[0]!.after, null);
    const calc = await worker.call('edit.preview', {
      source,
      op: { kind: 'calculate_field', name: 'AREA', expression: 'AREA * 2', where: null },
    });
    assert.equal(calc.sample.total, 100);
    assert.equal(Number(calc.sample.rows[0]!.after![0]), Number(calc.sample.rows[0]!.before![0]) * 2);
    const change = await worker.call('edit.preview', { source, op: { kind: 'change_type', name: 'NAME', type: 'integer' } });
    assert.equal(change.sample.rows[0]!.after![0], null, 'a county name does not convert to an integer');
    assert.match(change.notes[0]!, /^100 value\(s\) would not convert to integer/);
    assert.equal(fileHash(original), before);
  });

  it('previews and edits a Shapefile through its copy (FIDs from 0, multipolygons kept)', async () => {
    const { original, source, copy, path } = await copyOf('scot_BNG.shp');
    const shp = fileHash(original);
    const p = await worker.call('edit.preview', { source, op: { kind: 'delete_features', target: { fids: [0, 1, 999] } } });
    assert.equal(p.sample.total, 2);
    // The copy takes the Multi type: a multipolygon is accepted in the preview of the Shapefile, a line is not.
    const multi = { wkt: 'MULTIPOLYGON (((-4 56, -3.9 56, -3.9 56.1, -4 56)))' };
    const added = await worker.call('edit.preview', {
      source,
      op: { kind: 'add_features', features: [{ geometry: multi, properties: {} }], crs: 'EPSG:4326' },
    });
    assert.equal(added.sample.total, 1);
    await rejectsAsBadInput(
      worker.call('edit.preview', {
        source,
        op: { kind: 'add_features', features: [{ geometry: { wkt: 'LINESTRING (-4 56, -3 57)' }, properties: {} }], crs: 'EPSG:4326' },
      }),
      /holds MultiPolygon features/,
    );
    const r = await worker.call('edit.apply', {
      source: copy.source,
      tx: 1,
      op: { kind: 'delete_features', target: { fids: [0, 1, 999] } },
    });
    assert.equal(r.changed, 2);
    assert.match(r.notes[0]!, /No feature with id 999/);
    assert.equal(featureChecksum(path, copy.table).count, featureChecksum(original).count - 2);
    assert.equal(fileHash(original), shp);
  });

  it('refuses hostile filters, expressions and unknown fields before anything runs', async () => {
    const { copy, path } = await copyOf('nc.gpkg');
    const start = featureChecksum(path, copy.table);
    const attempts: EditOp[] = [
      { kind: 'delete_features', target: { where: '1=1; DROP TABLE nc' } },
      { kind: 'delete_features', target: { where: "load_extension('x') IS NULL" } },
      { kind: 'delete_features', target: { where: 'fid IN (SELECT fid FROM gpkg_contents)' } },
      { kind: 'calculate_field', name: 'NAME', expression: "ogr_geocode('x')", where: null },
      { kind: 'calculate_field', name: 'NAME', expression: '(SELECT group_concat(stmt) FROM mapwright_edit_journal)', where: null },
      { kind: 'update_features', target: { fids: [1] }, set: { 'NAME" = 1, "AREA': 2 }, geometry: null, crs: 'layer' },
      { kind: 'rename_field', from: 'nope', to: 'x' },
      { kind: 'add_features', features: [{ geometry: { wkt: 'POINT (-79 35.5)' }, properties: {} }], crs: 'EPSG:4326' },
      {
        kind: 'add_features',
        features: [{ geometry: { wkt: 'POLYGON ((500000 0, 500100 0, 500100 100, 500000 0))' }, properties: {} }],
        crs: 'EPSG:4326',
      },
      {
        kind: 'add_features',
        features: [{ geometry: { geojson: { type: 'Polygon', coordinates: 'x' } }, properties: {} }],
        crs: 'EPSG:4326',
      },
    ];
    for (const op of attempts) await rejectsAsBadInput(worker.call('edit.apply', { source: copy.source, tx: 1, op }), /./);
    assert.deepEqual(featureChecksum(path, copy.table), start);
  });

  it('refuses to replay a journal entry of another shape (a tampered copy), leaving the data as it is', async () => {
    const { copy, path } = await copyOf('nc.gpkg');
    await worker.call('edit.apply', { source: copy.source, tx: 1, op: { kind: 'delete_features', target: { fids: [4] } } });
    const after = featureChecksum(path, copy.table);
    const tampered = [
      `('restore', '["fid","NAME"]', '(4, load_extension(''/tmp/x.so''))')`,
      `('sql', NULL, 'ALTER TABLE "${copy.table}" RENAME TO x; DROP TABLE gpkg_contents')`,
      `('sql', NULL, 'DROP TABLE "${copy.table}"')`,
      `('delete', NULL, '1 OR 1=1')`,
    ];
    for (const [i, values] of tampered.entries()) {
      const tx = 100 + i;
      execFileSync(
        'ogrinfo',
        [
          '-q',
          '-sql',
          `INSERT INTO mapwright_edit_journal (tx, tbl, kind, cols, entry) VALUES (${tx}, '${copy.table}', ${values.slice(1, -1)})`,
          path,
        ],
        {
          env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
        },
      );
      await rejectsAsBadInput(worker.call('edit.undo', { source: copy.source, txs: [tx] }), /unexpected entry/);
      assert.deepEqual(featureChecksum(path, copy.table), after);
    }
  });

  it('writes back over a Shapefile after backing up every sidecar', async () => {
    const { original, source, copy } = await copyOf('scot_BNG.shp');
    const originalHash = fileHash(original);
    await worker.call('edit.apply', { source: copy.source, tx: 1, op: { kind: 'delete_features', target: { fids: [3] } } });
    const backupDir = out(`backups${n}`);
    const r = await worker.call('edit.write_back', { copy: copy.source, original: source, backupDir });
    assert.equal(r.featureCount, featureChecksum(original).count);
    const backups = readdirSync(backupDir);
    assert.ok(
      ['.shp', '.shx', '.dbf', '.prj'].every((ext) => backups.some((b) => b.endsWith(ext))),
      backups.join(','),
    );
    const shpBackup = join(
      backupDir,
      backups.find((b) => b.endsWith('.shp'))!,
    );
    assert.equal(fileHash(shpBackup), originalHash);
  });
});

/**
 * Editing through the whole main process (issue #14): the scripted model and the person edit a
 * real layer; the GIS worker writes a working copy; GDAL in this process checks the data by
 * checksum. The original's bytes never change, whatever the sequence of edits, undo and revert.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ScriptedModelServer, ScriptStep } from '../../e2e/model-server/scriptedModelServer.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { featureChecksum, fileHash } from '../gis-worker/edit/editTestSupport.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';
import { fixtures, haveFixtures, startApp } from './testApp.js';

type Result = { ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } };

describe('editing tools, end to end in main', { skip: !haveFixtures }, () => {
  let model: ScriptedModelServer;
  scriptedModelSuite((started) => (model = started));
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  async function app() {
    model.reset();
    const a = await startApp(model);
    const data = mkdtempSync(join(tmpdir(), 'mapwright-edit-data-'));
    dirs.push(a.home, data);
    const original = join(data, 'nc.gpkg');
    copyFileSync(join(fixtures, 'nc.gpkg'), original);
    const person = (entry: string, params: Record<string, unknown> = {}) =>
      (entry.startsWith('commands.')
        ? a.services.invoke('entries/trigger', { entry, params })
        : a.services.runForPerson(entry, params)) as Promise<Result>;
    assert.ok((await person('layers.load', { path: original })).ok);
    const layer = async () => ((await a.services.invoke('project/get', {})) as { layers: Layer[] }).layers[0]!;
    const ask = async (steps: ScriptStep[], text: string, runs: number) => {
      model.script(steps);
      await a.services.invoke('chat/send', { text });
      return runs;
    };
    const decide = (approvalId: string, decision: 'approve' | 'reject') =>
      a.services.invoke('tools/decide', { approvalId, decision, remember: false });
    return { ...a, original, person, layer, ask, decide, originalHash: fileHash(original), start: featureChecksum(original) };
  }

  it('the model deletes 3 features after approval on a working copy; undo brings them back; the original is never written', async () => {
    const a = await app();
    const name = (await a.layer()).name;
    await a.ask(
      [{ toolCalls: [{ name: 'edit_delete_features', arguments: { layer: name, fids: [1, 2, 3] } }] }, { text: 'deleted' }],
      'delete 1-3',
      1,
    );
    const req = await a.approval();
    assert.equal(req.safety, 'write');
    assert.equal(req.sample?.total, 3);
    assert.deepEqual(
      req.sample?.rows.map((r) => r.fid),
      [1, 2, 3],
    );
    assert.ok(req.sample?.rows.every((r) => r.after === null && r.before !== null));
    assert.match(String(req.preview?.working_copy), /original file is never changed/);
    await a.decide(req.id, 'approve');
    await a.runFinished(1);
    const edited = await a.layer();
    assert.ok(edited.editing, 'the layer shows its working copy');
    assert.equal(edited.editing.originalSource, a.original);
    assert.match(edited.source, /-outputs\/edits\/nc\.gpkg$/);
    assert.equal(edited.info.featureCount, 97);
    assert.equal(featureChecksum(edited.source).count, 97);
    assert.equal(fileHash(a.original), a.originalHash);

    assert.ok((await a.person('commands.undo')).ok);
    const undone = await a.layer();
    assert.equal(undone.source, a.original, 'undo puts the layer back on its original');
    assert.deepEqual(featureChecksum(edited.source), a.start, 'and the working copy holds the original data again');
    assert.equal(fileHash(a.original), a.originalHash);
  });

  it('deleting more than 10 features asks as destructive, never remembered; a rejection changes nothing', async () => {
    const a = await app();
    await a.ask(
      [{ toolCalls: [{ name: 'edit_delete_features', arguments: { layer: 'nc', where: 'BIR74 > 2000' } }] }, { text: 'ok' }],
      'delete big',
      1,
    );
    const req = await a.approval();
    assert.equal(req.safety, 'destructive');
    assert.equal(req.rememberable, false);
    assert.ok((req.sample?.total ?? 0) > 10);
    await a.decide(req.id, 'reject');
    await a.runFinished(1);
    assert.equal((await a.layer()).editing, undefined, 'no working copy was made');
    assert.deepEqual(featureChecksum(a.original), a.start);
  });

  it('field edits by the person undo one by one, and Revert turn undoes a whole run of the model', async () => {
    const a = await app();
    assert.ok((await a.person('fields.add', { layer: 'nc', name: 'ratio', type: 'real' })).ok);
    const copy = (await a.layer()).source;
    const s1 = featureChecksum(copy);
    const calc = await a.person('fields.calculate', { layer: 'nc', name: 'ratio', expression: 'SID74 * 1.0 / BIR74' });
    assert.ok(calc.ok, JSON.stringify(calc));
    const s2 = featureChecksum(copy);
    assert.ok((await a.person('fields.change_type', { layer: 'nc', name: 'CNTY_ID', type: 'text' })).ok);
    assert.ok((await a.person('fields.rename', { layer: 'nc', from: 'NAME', to: 'county' })).ok);
    assert.ok((await a.layer()).info.fields.some((f) => f.name === 'county'));

    await a.person('commands.set_mode', { mode: 'auto' });
    await a.ask(
      [
        {
          toolCalls: [
            { name: 'edit_update_features', arguments: { layer: 'nc', fids: [5], set: { county: 'Renamed' } } },
            {
              name: 'edit_add_features',
              arguments: {
                layer: 'nc',
                features: [{ geometry: 'POLYGON ((-80 35, -79.9 35, -79.9 35.1, -80 35))', properties: { county: 'New' } }],
              },
            },
          ],
        },
        { text: 'done' },
      ],
      'two edits',
      1,
    );
    await a.runFinished(1);
    assert.equal(featureChecksum(copy).count, 101);
    const reverted = await a.person('commands.revert_turn');
    assert.ok(reverted.ok, JSON.stringify(reverted));
    assert.equal(featureChecksum(copy).count, 100);
    for (let i = 0; i < 2; i++) assert.ok((await a.person('commands.undo')).ok);
    assert.deepEqual(featureChecksum(copy), s2, 'rename and change of type undone');
    assert.ok((await a.person('commands.undo')).ok);
    assert.deepEqual(featureChecksum(copy), s1, 'calculation undone');
    assert.ok((await a.person('commands.undo')).ok);
    assert.deepEqual(featureChecksum(copy), a.start, 'added field undone: the copy equals the original');
    assert.equal(fileHash(a.original), a.originalHash);
  });

  it('the person starts editing, then deleting a field asks as destructive even for them; undo brings its values back', async () => {
    const a = await app();
    const started = await a.person('edit.start', { layer: 'nc' });
    assert.ok(started.ok, JSON.stringify(started));
    assert.equal(started.data?.already_editing, false);
    const copy = (await a.layer()).source;
    assert.deepEqual(featureChecksum(copy), a.start, 'the copy holds exactly the original data');
    const pending = a.person('fields.delete', { layer: 'nc', name: 'BIR79' });
    const req = await a.approval();
    assert.equal(req.safety, 'destructive');
    assert.equal(req.sample?.total, 100, 'every county has a BIR79 value');
    await a.decide(req.id, 'approve');
    assert.ok((await pending).ok);
    assert.ok(!featureChecksum(copy).fields.includes('BIR79'));
    assert.ok((await a.person('commands.undo')).ok);
    assert.deepEqual(featureChecksum(copy), a.start);
    assert.ok(
      (await a.layer()).info.fields.some((f) => f.name === 'BIR79'),
      'the layer lists the field again',
    );
  });

  it('writing back asks as destructive and keeps a backup of the original', async () => {
    const a = await app();
    assert.ok((await a.person('edit.delete_features', { layer: 'nc', fids: [7] })).ok);
    await a.ask([{ toolCalls: [{ name: 'edit_write_back', arguments: { layer: 'nc' } }] }, { text: 'written' }], 'save it', 1);
    const req = await a.approval();
    assert.equal(req.safety, 'destructive');
    assert.equal(req.preview?.original_features, 100);
    assert.equal(req.preview?.edited_features, 99);
    await a.decide(req.id, 'approve');
    await a.runFinished(1);
    assert.equal(featureChecksum(a.original).count, 99);
    const backupDir = String(req.preview?.backup_to);
    const files = readdirSync(backupDir);
    assert.equal(files.length, 1);
    assert.equal(fileHash(join(backupDir, files[0]!)), a.originalHash);
  });
});

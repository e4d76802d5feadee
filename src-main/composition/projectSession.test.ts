/**
 * Projects (issue #15) through the whole main process: save as → the copy opens with the same
 * layers, styles and view, its sources stored relative to it; the folder moved → still found;
 * a file deleted → missing, then located; a restart opens the last project; files that are not
 * projects (the app's own settings file, a text file, a newer project) are refused unchanged.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { EventName } from '../../src-shared/bridge/names.js';
import type { Result } from '../../src-shared/bridge/contract.js';
import { appSettingsPath } from '../settings/appSettingsDb.js';
import { createProjectSession } from './projectSession.js';
import { fixtures, haveFixtures, testServiceOptions } from './testApp.js';

const skip = haveFixtures ? false : `GIS fixtures not found at ${fixtures}`;
const sessions: { close(): Promise<void> }[] = [];
after(async () => {
  for (const s of sessions) await s.close().catch(() => undefined);
});

async function start(home: string) {
  delete process.env.MAPWRIGHT_MODEL_URL;
  const session = await createProjectSession(testServiceOptions(home));
  sessions.push(session);
  const seen: { name: EventName; payload: unknown }[] = [];
  session.connect((name, payload) => seen.push({ name, payload }));
  const get = () => session.invoke('project/get', {}) as Promise<Result<'project/get'>>;
  /** Runs a project method and waits for the switch it causes. */
  async function switchBy(method: 'project/open' | 'project/save-as' | 'project/new', params: object) {
    const before = seen.filter((e) => e.name === 'project/switched').length;
    await session.invoke(method, params);
    const deadline = Date.now() + 30_000;
    while (seen.filter((e) => e.name === 'project/switched').length === before) {
      if (Date.now() > deadline) throw new Error('no project/switched');
      await new Promise((r) => setTimeout(r, 50));
    }
    return seen.filter((e) => e.name === 'project/switched').at(-1)!.payload as { path: string; error: string | null };
  }
  return { session, get, switchBy, seen };
}

function storedSources(projectFile: string): string[] {
  const db = new Database(projectFile, { readonly: true });
  try {
    return (db.prepare('SELECT source FROM layers ORDER BY ord').all() as { source: string }[]).map((r) => r.source);
  } finally {
    db.close();
  }
}

test('save as, move the folder, a missing file located, restart: the project follows', { skip, timeout: 180_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), 'mapwright-proj-home-'));
  const work = mkdtempSync(join(tmpdir(), 'mapwright-proj-work-'));
  mkdirSync(join(work, 'data'));
  copyFileSync(join(fixtures, 'nc.gpkg'), join(work, 'data', 'nc.gpkg'));
  const app = await start(home);

  const loaded = await app.session.runForPerson('layers.load', { path: join(work, 'data', 'nc.gpkg') });
  assert.ok(loaded.ok, JSON.stringify(loaded));
  const layerId = (loaded.data as { layer: { id: string } }).layer.id;
  const styled = await app.session.runForPerson('style.set_simple', { layer: layerId, color: '#aa3300' });
  assert.ok(styled.ok, JSON.stringify(styled));
  const view = { center: [-79.5, 35.4] as [number, number], zoom: 7.25, bearing: 12, pitch: 30 };
  await app.session.invoke('project/set-view', { view });
  // A view sent for another project (a window still showing it while main switches) is not written here.
  const elsewhere = (await app.session.invoke('project/set-view', { view: { ...view, zoom: 3 }, projectId: 'another' })) as {
    saved: boolean;
  };
  assert.equal(elsewhere.saved, false);
  const before = await app.get();
  assert.equal(before.project.path, join(home, 'projects', 'untitled.mapwright'));

  // Save as: a copy beside the data, which the copy then stores relative to itself.
  const target = join(work, 'county study.mapwright');
  const switched = await app.switchBy('project/save-as', { path: target });
  assert.deepEqual(switched, { path: target, error: null });
  const saved = await app.get();
  assert.equal(saved.project.path, target);
  assert.equal(saved.project.name, 'county study');
  assert.deepEqual(
    saved.layers.map((l) => [l.name, l.source, l.style]),
    before.layers.map((l) => [l.name, l.source, l.style]),
  );
  assert.deepEqual(saved.view, view);
  assert.deepEqual(saved.missingLayerIds, []);
  assert.deepEqual(storedSources(target), ['./data/nc.gpkg']);
  // The conversation history and audit travel too: the load is in the copy's audit.
  const audit = (await app.session.invoke('audit/list', {})) as { entries: { toolId: string }[] };
  assert.ok(audit.entries.some((e) => e.toolId === 'layers.load'));

  // Save as never overwrites.
  await assert.rejects(app.session.invoke('project/save-as', { path: target }), /already exists/);

  // The whole folder moves: the project still finds its data.
  const moved = `${work}-moved`;
  renameSync(work, moved);
  const movedFile = join(moved, 'county study.mapwright');
  await app.switchBy('project/open', { path: movedFile });
  const reopened = await app.get();
  assert.equal(reopened.layers[0]!.source, join(moved, 'data', 'nc.gpkg'));
  assert.deepEqual(reopened.missingLayerIds, []);
  assert.deepEqual(reopened.view, view);
  const data = await app.session.serveData(`data/layers/${reopened.layers[0]!.id}.geojson`);
  assert.equal(data.status, 200, String(data.body).slice(0, 200));

  // The file goes: the layer is missing; "Locate…" points it at the file's new place.
  mkdirSync(join(moved, 'elsewhere'));
  renameSync(join(moved, 'data', 'nc.gpkg'), join(moved, 'elsewhere', 'nc.gpkg'));
  await app.switchBy('project/open', { path: movedFile });
  const missing = await app.get();
  assert.deepEqual(missing.missingLayerIds, [missing.layers[0]!.id]);
  const located = await app.session.runForPerson('layers.locate', {
    layer: missing.layers[0]!.id,
    path: join(moved, 'elsewhere', 'nc.gpkg'),
  });
  assert.ok(located.ok, JSON.stringify(located));
  const after = await app.get();
  assert.deepEqual(after.missingLayerIds, []);
  assert.deepEqual(after.layers[0]!.style, before.layers[0]!.style);
  assert.deepEqual(storedSources(movedFile), ['./elsewhere/nc.gpkg']);
  // The map hears which layers are missing with every layer change: none now; Undo brings the old path back, missing.
  const lastMissing = () =>
    (app.seen.filter((e) => e.name === 'layers/changed').at(-1)!.payload as { missingLayerIds?: string[] }).missingLayerIds;
  assert.deepEqual(lastMissing(), []);
  const undone = (await app.session.invoke('entries/trigger', { entry: 'commands.undo', params: {} })) as { ok: boolean };
  assert.ok(undone.ok, JSON.stringify(undone));
  assert.deepEqual(lastMissing(), [missing.layers[0]!.id]);
  assert.equal((await app.get()).layers[0]!.source, join(moved, 'data', 'nc.gpkg'));
  assert.ok(
    (await app.session.runForPerson('layers.locate', { layer: missing.layers[0]!.id, path: join(moved, 'elsewhere', 'nc.gpkg') })).ok,
  );

  // Recent projects, newest first; a restart opens the last one.
  const recent = (await app.session.invoke('project/recent', {})) as Result<'project/recent'>;
  assert.equal(recent.projects[0]!.path, movedFile);
  assert.equal(recent.projects[0]!.current, true);
  assert.ok(recent.projects.some((p) => p.path === target && !p.exists));
  await app.session.close();
  const again = await start(home);
  assert.equal((await again.get()).project.path, movedFile);

  // New: a fresh untitled project in the data folder (the first untitled exists).
  await again.switchBy('project/new', {});
  const fresh = await again.get();
  assert.equal(fresh.project.path, join(home, 'projects', 'untitled-2.mapwright'));
  assert.deepEqual(fresh.layers, []);
  assert.equal(fresh.view, null);
});

test('files that are not projects are refused and left unchanged', { skip, timeout: 120_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), 'mapwright-proj-home-'));
  const app = await start(home);
  const dir = mkdtempSync(join(tmpdir(), 'mapwright-proj-bad-'));

  // The app's own settings file (a SQLite file, in the data folder): not a project.
  const settings = appSettingsPath(home);
  const settingsBytes = readFileSync(settings);
  await assert.rejects(app.session.invoke('project/open', { path: settings }), /ends with \.mapwright/);
  const disguised = join(dir, 'settings.mapwright');
  copyFileSync(settings, disguised);
  await assert.rejects(app.session.invoke('project/open', { path: disguised }), /not a Mapwright project/);
  assert.deepEqual(readFileSync(disguised), settingsBytes, 'a refused file is not migrated');

  const text = join(dir, 'notes.mapwright');
  writeFileSync(text, 'just text');
  await assert.rejects(app.session.invoke('project/open', { path: text }), /not a Mapwright project/);
  await assert.rejects(app.session.invoke('project/open', { path: 'relative.mapwright' }), /absolute/);
  await assert.rejects(app.session.invoke('project/open', { path: join(dir, 'none.mapwright') }), /No project file/);

  // A project from a newer Mapwright: refused, not downgraded.
  const newer = join(dir, 'newer.mapwright');
  const db = new Database(newer);
  db.exec('CREATE TABLE project (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL)');
  db.pragma('user_version = 999');
  db.close();
  await assert.rejects(app.session.invoke('project/open', { path: newer }), /newer Mapwright/);

  // Saving into the outputs folder of the project itself would copy the folder into itself.
  mkdirSync(join(home, 'projects', 'untitled-outputs'), { recursive: true });
  await assert.rejects(
    app.session.invoke('project/save-as', { path: join(home, 'projects', 'untitled-outputs', 'x.mapwright') }),
    /inside its own outputs folder/,
  );
  // Still the same project, still answering.
  assert.equal((await app.get()).project.path, join(home, 'projects', 'untitled.mapwright'));
  rmSync(dir, { recursive: true, force: true });
});

test("a shared project's layer cannot reach the app's own files or the network", { skip, timeout: 120_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), 'mapwright-proj-home-'));
  const dir = mkdtempSync(join(tmpdir(), 'mapwright-proj-hostile-'));
  const file = join(dir, 'shared.mapwright');
  // Make a real project, then plant hostile sources in it as a stranger's file could.
  {
    const app = await start(home);
    copyFileSync(join(fixtures, 'nc.gpkg'), join(dir, 'nc.gpkg'));
    assert.ok((await app.session.runForPerson('layers.load', { path: join(dir, 'nc.gpkg') })).ok);
    await app.switchBy('project/save-as', { path: file });
    await app.session.close();
  }
  const db = new Database(file);
  const row = db.prepare('SELECT * FROM layers').get() as Record<string, unknown>;
  const plant = db.prepare(
    'INSERT INTO layers (id, name, source, sublayer, kind, ord, visible, opacity, style, info, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  plant.run('L-private', 'private', appSettingsPath(home), null, 'vector', 1, 1, 1, row.style, row.info, 'x');
  plant.run('L-net', 'net', '/vsicurl/http://127.0.0.1:9/secret.geojson', null, 'vector', 2, 1, 1, row.style, row.info, 'x');
  plant.run('L-up', 'up', './../../../../../../../etc/passwd', null, 'vector', 3, 1, 1, row.style, row.info, 'x');
  db.close();

  const app = await start(home);
  await app.switchBy('project/open', { path: file });
  const opened = await app.get();
  assert.equal(opened.layers.length, 4);
  for (const id of ['L-private', 'L-net', 'L-up']) {
    const res = await app.session.serveData(`data/layers/${id}.geojson`);
    assert.notEqual(res.status, 200, `${id} was served: ${String(res.body).slice(0, 120)}`);
    assert.doesNotMatch(String(res.body), /root:|CREATE TABLE|"type":"FeatureCollection"/);
  }
});

import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { appSettingsPath, openAppSettingsDb } from '../settings/appSettingsDb.js';
import { tempHomes } from '../store/testing/tempHomes.js';
import { createMemoryRepo } from './memoryRepo.js';

const freshHome = tempHomes('mapwright-memory-repo-');
const A = '/projects/a.mapwright';
const B = '/projects/b.mapwright';

describe('memory table in the app settings file', () => {
  it('keeps user memories for every project and project memories for theirs only, across a reopen', () => {
    const home = freshHome();
    const db = openAppSettingsDb(home);
    const mine = db.memories.add({ scope: 'user', project: A, text: 'Reports in Chinese' });
    const ofA = db.memories.add({ scope: 'project', project: A, text: 'Rivers are in EPSG:2169' });
    db.memories.add({ scope: 'project', project: B, text: 'Roads come from OSM' });
    db.close();

    const again = openAppSettingsDb(home);
    assert.deepEqual(
      again.memories.list(A).map((m) => [m.scope, m.text]),
      [
        ['project', 'Rivers are in EPSG:2169'],
        ['user', 'Reports in Chinese'],
      ],
    );
    assert.deepEqual(
      again.memories.list(B).map((m) => m.text),
      ['Roads come from OSM', 'Reports in Chinese'],
    );
    assert.equal(again.memories.get(mine.id)!.project, null, 'a user memory names no project');
    assert.equal(again.memories.get(ofA.id)!.project, A);
    again.close();
  });

  it('edits move a memory to the top; deleting removes it; unknown ids change nothing', () => {
    const home = freshHome();
    openAppSettingsDb(home).close();
    // A clock that ticks a second per write: the order must not hang on two writes in one millisecond.
    let tick = 0;
    const raw = new Database(appSettingsPath(home));
    const db = { memories: createMemoryRepo(raw, () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++))), close: () => raw.close() };
    const first = db.memories.add({ scope: 'project', project: A, text: 'first' });
    db.memories.add({ scope: 'project', project: A, text: 'second' });
    const edited = db.memories.update(first.id, '  first,\nedited ')!;
    assert.equal(edited.text, 'first, edited');
    assert.equal(edited.createdAt, first.createdAt);
    assert.deepEqual(
      db.memories.list(A).map((m) => m.text),
      ['first, edited', 'second'],
    );
    assert.equal(db.memories.update('nope', 'x'), undefined);
    assert.equal(db.memories.remove(first.id), true);
    assert.equal(db.memories.remove(first.id), false);
    assert.deepEqual(
      db.memories.list(A).map((m) => m.text),
      ['second'],
    );
    db.close();
  });

  it('refuses an empty, blank or over-long text and an unknown scope before writing', () => {
    const db = openAppSettingsDb(freshHome());
    assert.throws(() => db.memories.add({ scope: 'project', project: A, text: ' \n ' }), /a memory needs text/);
    assert.throws(() => db.memories.add({ scope: 'project', project: A, text: 'x'.repeat(501) }), /at most 500/);
    assert.throws(() => db.memories.add({ scope: 'team' as 'user', project: A, text: 'x' }));
    const kept = db.memories.add({ scope: 'user', project: A, text: 'kept' });
    assert.throws(() => db.memories.update(kept.id, ''), /a memory needs text/);
    assert.deepEqual(
      db.memories.list(A).map((m) => m.text),
      ['kept'],
    );
    db.close();
  });

  it('the table itself refuses a user memory tied to a project or a project memory without one', () => {
    const home = freshHome();
    openAppSettingsDb(home).close();
    const raw = new Database(appSettingsPath(home));
    const insert = raw.prepare("INSERT INTO memories VALUES (?, ?, ?, 'x', '2026-01-01', '2026-01-01')");
    assert.throws(() => insert.run('1', 'user', A), /CHECK constraint/);
    assert.throws(() => insert.run('2', 'project', null), /CHECK constraint/);
    assert.throws(() => insert.run('3', 'team', null), /CHECK constraint/);
    raw.close();
  });

  it('a file from before memories (user_version 1) gains the table and keeps its settings', () => {
    const home = freshHome();
    const raw = new Database(join(home, 'mapwright.sqlite'));
    raw.exec(`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE endpoint_capabilities (endpoint TEXT PRIMARY KEY, capabilities TEXT NOT NULL, updated_at TEXT NOT NULL);
      INSERT INTO settings VALUES ('model', '{"url":"http://x/v1"}', '2026-01-01');
      PRAGMA user_version = 1;`);
    raw.close();
    const db = openAppSettingsDb(home);
    assert.deepEqual(db.get('model'), { url: 'http://x/v1' });
    db.memories.add({ scope: 'user', project: A, text: 'after the upgrade' });
    assert.equal(db.memories.list(B).length, 1);
    db.close();
  });
});

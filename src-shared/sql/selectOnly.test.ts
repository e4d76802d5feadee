import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSelectOnly } from './selectOnly.js';

const ok = (sql: string) => assert.equal(checkSelectOnly(sql).ok, true, sql);
const refused = (sql: string, why: RegExp) => {
  const r = checkSelectOnly(sql);
  assert.equal(r.ok, false, sql);
  if (!r.ok) assert.match(r.reason, why);
};

test('one SELECT (or WITH … SELECT) passes, with a trailing semicolon, comments and keywords inside literals', () => {
  ok('SELECT * FROM world');
  ok('select name, replace(name, \'a\', \'b\') from "world bank";');
  ok("SELECT 'DROP TABLE x; DELETE' AS s, \"update\" FROM t -- a note; DELETE\n");
  ok('WITH big AS (SELECT * FROM w WHERE pop > 1e8) SELECT COUNT(*) FROM big');
  ok('SELECT last_update, created_at FROM t /* INSERT */');
  assert.deepEqual(checkSelectOnly('SELECT 1 ;; '), { ok: true, sql: 'SELECT 1' });
});

test('anything that writes, attaches, configures or touches files is refused, with the reason', () => {
  refused('DELETE FROM world', /starts with DELETE/);
  refused('SELECT 1; DROP TABLE world', /one statement/);
  refused("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", /INSERT is not/);
  refused('REPLACE INTO t VALUES (1)', /starts with REPLACE/);
  refused("ATTACH DATABASE 'x.db' AS x", /starts with ATTACH/);
  refused('PRAGMA writable_schema = 1', /starts with PRAGMA/);
  refused("SELECT BlobToFile(x'00', '/tmp/f')", /BlobToFile\(\) is not allowed/);
  refused("SELECT ExportSHP('t', 'geom', '/tmp/t', 'UTF-8')", /ExportSHP\(\) is not allowed/);
  refused("SELECT load_extension('/tmp/evil')", /load_extension\(\) is not allowed/);
  refused("SELECT 'unterminated", /unterminated string/);
  refused('   ', /empty/);
});

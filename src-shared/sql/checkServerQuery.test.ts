import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkServerQuery } from './checkServerQuery.js';

function passes(sql: string): string {
  const r = checkServerQuery(sql);
  assert.ok(r.ok, `${sql} → ${r.ok ? '' : r.reason}`);
  return r.sql;
}
function refused(sql: string, why: RegExp): void {
  const r = checkServerQuery(sql);
  assert.ok(!r.ok, `passed but should not: ${sql}`);
  assert.match(r.reason, why, sql);
}

describe('checkServerQuery: what runs', () => {
  it('reads: SELECT, WITH, VALUES, TABLE, parenthesised set operations, PostGIS and casts', () => {
    for (const sql of [
      'SELECT 1',
      'select name, ST_Area(geom::geography) AS m2 FROM public.nc_counties ORDER BY 2 DESC LIMIT 5',
      'WITH big AS (SELECT * FROM nc_counties WHERE area > 0.1) SELECT count(*) FROM big',
      'WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT sum(n) FROM t',
      'VALUES (1, 2), (3, 4)',
      'TABLE nc_counties',
      '(SELECT 1) UNION (SELECT 2)',
      "SELECT ST_AsText(ST_Buffer('POINT(0 0)'::geometry, 1))",
      'SELECT $$a dollar string with ; DROP TABLE x; inside$$, $tag$ $$ ; $tag$',
      'SELECT "update", "insert" FROM t', // quoted: names, not statements
      "SELECT substring('abc' FROM 1 FOR 2)",
      'SELECT x$$y FROM t', // `$` inside a name: one identifier
      "SELECT 'it''s', E'it\\'s', U&'d\\0061t', B'101', X'1F', N'n'",
      "SELECT a[1], b::text[] , c->>'k' FROM t",
    ])
      passes(sql);
  });

  it('strings, quoted names and comments may hold any word, even a denied function or a semicolon', () => {
    passes("SELECT 'pg_read_file(''/etc/passwd''); DROP TABLE x' AS s");
    passes('SELECT 1 AS "pg_read_file; DROP"');
    passes("SELECT E'\\'; DELETE FROM t; --' AS s");
    passes('SELECT 1 /* ; DELETE FROM t; */');
    passes('SELECT 1 /* nested /* ; */ still a comment ; */');
    passes('SELECT 1 -- ; DROP TABLE t');
  });

  it('a trailing semicolon is dropped and comments are blanked at the same length (error positions stay right)', () => {
    assert.equal(passes('SELECT 1;'), 'SELECT 1');
    assert.equal(passes('SELECT 1 ; ;  -- done'), 'SELECT 1');
    const sql = 'SELECT /* c */ x\n-- line\nFROM t';
    const out = passes(sql);
    assert.equal(out.length, sql.length);
    assert.equal(out.indexOf('FROM'), sql.indexOf('FROM'));
    assert.doesNotMatch(out, /line|c \*/);
  });

  it('lists the functions called, without schema', () => {
    const r = checkServerQuery('SELECT public.ST_Area(geom), count(*) FROM t');
    assert.ok(r.ok);
    assert.deepEqual(r.functions, ['count', 'st_area']);
  });
});

describe('checkServerQuery: hostile input', () => {
  it('a second statement, however it is hidden', () => {
    refused('SELECT 1; DROP TABLE t', /second statement/);
    refused('SELECT 1; SELECT 2', /second statement/);
    // A comment that ends early (nested comments count their depth).
    refused('SELECT 1 /* /* */ ; DROP TABLE t; /* */', /unterminated \/\* comment/);
    refused('SELECT 1 /* /* */ */ ; DROP TABLE t', /second statement/);
    // A `--` comment ends at a carriage return too.
    refused('SELECT 1 -- c\r; DROP TABLE t', /second statement/);
    // E'' escapes: the string ends at the second quote, the ; is outside.
    refused("SELECT E'\\\\'; DROP TABLE t; --'", /second statement/);
    // A plain '' has no backslash escape (standard_conforming_strings is on for the session).
    refused("SELECT 'a\\'; DROP TABLE t; --'", /second statement/);
    // A dollar quote closes only at its own tag.
    refused('SELECT $a$ x $b$ ; $a$; DROP TABLE t', /second statement/);
    refused('SELECT $a$ never closed', /unterminated dollar-quoted/);
    // `x$$` is a name, not the start of a dollar quote.
    refused('SELECT x$$; DROP TABLE t; $$ $$', /second statement/);
  });

  it('string continuation across a newline goes on in the same mode', () => {
    // E mode continues: \' is escaped, the ; is inside the literal.
    passes("SELECT E'a'\n'\\' ; DROP TABLE x; --'");
    // A block comment breaks continuation: the second literal is plain and ends at \'.
    refused("SELECT E'a' /* */\n'\\' ; DROP TABLE x; --'", /second statement/);
    // A -- comment does not.
    passes("SELECT E'a' -- c\n'\\' ; DROP TABLE x; --'");
  });

  it('data-modifying CTEs, SELECT INTO, row locks and other statements', () => {
    refused('WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', /DELETE changes data/);
    refused('WITH i AS (INSERT INTO t VALUES (1) RETURNING id) SELECT * FROM i', /INSERT changes data/);
    refused('WITH u AS (UPDATE t SET a = 1 RETURNING *) SELECT 1', /UPDATE changes data/);
    refused('WITH m AS (MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE) SELECT 1', /MERGE changes data/);
    refused('SELECT * INTO new_table FROM t', /INTO creates a table/);
    refused('SELECT * FROM t FOR UPDATE', /locks rows/);
    refused('SELECT * FROM t FOR SHARE', /locks rows/);
    refused('SELECT * FROM t FOR NO KEY UPDATE', /locks rows/);
    refused('SELECT * FROM t FOR KEY SHARE', /locks rows/);
    for (const sql of [
      'DROP TABLE t',
      'COPY t TO PROGRAM $$curl x$$',
      'SET statement_timeout = 0',
      'NOTIFY x',
      'DO $$BEGIN PERFORM pg_sleep(1); END$$',
      'EXPLAIN ANALYZE DELETE FROM t',
      'CALL p()',
      'SHOW data_directory',
      '',
      '  ;  ',
    ])
      refused(sql, /only a single SELECT|there is no statement/);
    refused("SELECT 1 FROM t WHERE x IN (COPY t TO '/tmp/x')", /COPY/);
  });

  it('functions that reach files, the network, other databases, settings, sessions, locks or run SQL text', () => {
    const cases: [string, RegExp][] = [
      ["SELECT pg_read_file('/etc/passwd')", /pg_read_file\(\) is not allowed: it reads a file/],
      ["SELECT pg_catalog.pg_read_binary_file('/etc/passwd')", /pg_read_binary_file/],
      ["SELECT * FROM pg_ls_dir('.')", /pg_ls_dir.*lists a folder/],
      ['SELECT pg_ls_waldir()', /pg_ls_waldir/],
      ["SELECT pg_stat_file('postgresql.conf')", /pg_stat_file/],
      ["SELECT lo_import('/etc/passwd')", /lo_import/],
      ['SELECT lo_get(1234)', /lo_get/],
      ["SELECT pg_file_write('/tmp/x', 'y', false)", /pg_file_write/],
      ['SELECT * FROM pg_logdir_ls()', /pg_logdir_ls/],
      ["SELECT set_config('statement_timeout', '0', true)", /set_config.*changes a setting/],
      ['SELECT pg_sleep(100)', /pg_sleep\(\) is not allowed: it waits/],
      ["SELECT pg_sleep_for('1 hour')", /pg_sleep_for/],
      ["SELECT * FROM dblink('host=evil', 'select 1') AS t(x int)", /dblink.*another database/],
      ["SELECT dblink_exec('host=x', 'drop table t')", /dblink_exec/],
      ["SELECT query_to_xml('select pg_read_file(''/etc/passwd'')', true, false, '')", /query_to_xml.*runs SQL given as text/],
      ["SELECT table_to_xml('t', true, false, '')", /table_to_xml/],
      ["SELECT cursor_to_xml('c', 1, true, false, '')", /cursor_to_xml/],
      ['SELECT pg_terminate_backend(1)', /pg_terminate_backend.*signals/],
      ['SELECT pg_cancel_backend(1)', /pg_cancel_backend/],
      ['SELECT pg_reload_conf()', /pg_reload_conf/],
      ['SELECT pg_advisory_lock(1)', /pg_advisory_lock.*advisory lock/],
      ['SELECT pg_try_advisory_xact_lock(1)', /advisory lock/],
      ['SELECT txid_current()', /txid_current/],
      ["SELECT pg_notify('c', 'x')", /pg_notify/],
      ["SELECT nextval('s')", /nextval/],
      ["SELECT * FROM ts_stat('SELECT pg_read_file(''x'')::tsvector')", /ts_stat.*runs SQL/],
      ["SELECT * FROM crosstab('select 1')", /crosstab/],
      ["SELECT * FROM pgr_dijkstra('SELECT 1', 1, 2)", /pgr_dijkstra/],
      ["SELECT ST_MapAlgebra(rast, 1, 'pg_read_file(text)'::regprocedure)", /st_mapalgebra/],
      ["SELECT http_get('http://evil/')", /http_get.*network/],
      ["SELECT pg_logical_emit_message(true, 'x', 'y')", /pg_logical_emit_message/],
      ['SELECT pg_stat_reset()', /pg_stat_reset/],
      // However the name is written: case, quotes, schema, space or comments before '('.
      ["SELECT PG_READ_FILE('/etc/passwd')", /pg_read_file/],
      ['SELECT "pg_read_file"(\'/etc/passwd\')', /pg_read_file/],
      ['SELECT pg_catalog . "pg_read_file" /* x */ (\'/etc/passwd\')', /pg_read_file/],
      ["SELECT pg_read_file\n('/etc/passwd')", /pg_read_file/],
      // Unicode escapes in a quoted name: U&"pg\005fread_file" is pg_read_file.
      ['SELECT U&"pg\\005fread_file"(\'/etc/passwd\')', /pg_read_file/],
      ['SELECT u&"pg_read\\+00005ffile"(\'/etc/passwd\')', /pg_read_file/],
      // Attribute notation f(x) = x.f.
      ["SELECT ('/etc/passwd'::text).pg_read_file", /pg_read_file/],
    ];
    for (const [sql, why] of cases) refused(sql, why);
  });

  it('catalogs with password hashes, credentials or server configuration files', () => {
    refused('SELECT rolpassword FROM pg_authid', /pg_authid holds credentials/);
    refused('SELECT * FROM pg_catalog."pg_shadow"', /pg_shadow/);
    refused('SELECT * FROM pg_user_mappings', /pg_user_mappings/);
    refused('SELECT * FROM pg_hba_file_rules', /pg_hba_file_rules/);
    refused('SELECT * FROM pg_file_settings', /pg_file_settings/);
  });

  it('text the server could read differently is refused', () => {
    refused('SELECT * FROM t WHERE id = $1', /parameter/);
    refused('SELECT $ 1', /opens no dollar-quoted/);
    refused('SELECT 1\u000b; DROP TABLE t', /unexpected character U\+000B/);
    refused('SELECT 1 \\; DROP TABLE t', /unexpected character '\\'/);
    refused('SELECT "" FROM t', /empty quoted name/);
    refused("SELECT 'never closed", /unterminated string/);
    refused('SELECT "never closed', /unterminated quoted name/);
    refused('SELECT 1abc', /number run into a name/);
    refused('SELECT U&"x!0041" UESCAPE \'!\'', /UESCAPE/);
    refused('SELECT U&"pg\\zzzz"', /invalid Unicode escape/);
    refused('SELECT 1\u0000; DROP TABLE t', /NUL/);
    refused('SELECT (1', /unclosed/);
    refused('SELECT 1) q, (SELECT 2', /unmatched '\)'/);
  });

  it('non-ASCII characters are name characters, as on the server: NBSP does not separate words', () => {
    // `pg_read_file\u00a0(` is one name followed by '(' — a name that is not pg_read_file.
    const r = checkServerQuery("SELECT pg_read_file\u00a0('/etc/passwd')");
    assert.ok(r.ok && r.functions.includes('pg_read_file\u00a0'));
    // And a keyword glued to NBSP is a name, not the keyword.
    passes('SELECT 1 AS x\u00a0delete');
  });
});

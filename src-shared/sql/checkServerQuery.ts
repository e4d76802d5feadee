/**
 * The guard of SQL that runs on a person's PostgreSQL/PostGIS server (`inspect_sql` with a
 * `connection`, issue 16). Main runs what passes in a READ ONLY transaction with a statement
 * time-out (src-main/postgis/pgReadOnlyQuery.ts), so writes fail there anyway; this check is
 * the other wall: what a read-only transaction still lets through.
 *   - exactly one statement: no `;` outside strings, quoted names, dollar quotes and comments
 *     (a trailing one is dropped);
 *   - it starts with SELECT, WITH, VALUES or TABLE (after opening parentheses), and no word of
 *     another statement appears bare anywhere: a data-modifying CTE (`WITH x AS (DELETE …)`),
 *     SELECT … INTO, row locks (FOR UPDATE/SHARE), COPY, SET, NOTIFY, DO, CALL…;
 *   - no call of a function that reaches files, the network or other databases, runs SQL
 *     given as text (which this check could not see), changes settings, signals other
 *     sessions, takes locks or waits (DENIED_FUNCTIONS, DENIED_PREFIXES); no read of the
 *     catalogs that hold password hashes or server configuration files (DENIED_RELATIONS).
 *
 * The tokenizer follows PostgreSQL's own scanner (scan.l) where it decides what is text and
 * what is SQL: nested block comments, `--` to the end of the line, '…' with '' doubled,
 * E'…' with backslash escapes, string continuation across a newline in the same mode,
 * U&'…'/U&"…" (a name's \XXXX escapes decoded; UESCAPE refused), $tag$…$tag$ dollar quotes, `$` inside
 * identifiers (`a$$b` is one name), any non-ASCII character as an identifier character. The
 * session runs with standard_conforming_strings on, so a plain '…' has no backslash escapes
 * there either. Where the two could disagree the text is refused (a parameter `$1`, a
 * backslash or control character outside a literal, a number run into a name).
 */

export type ServerQueryCheck =
  | {
      ok: true;
      /**
       * The query to run: comments blanked with spaces (same length, so the server's error
       * positions still point into the text as written) and a trailing `;` cut off.
       */
      sql: string;
      /** Functions it calls, lower-case, without schema. */
      functions: string[];
    }
  | { ok: false; reason: string };

interface PgToken {
  kind: 'word' | 'ident' | 'string' | 'number' | 'op' | 'param';
  /** word: ASCII lower case; ident: the name (quotes removed, escapes decoded); op: as written. */
  text: string;
  /** For an `ident` written U&"…": its undecoded content, decoded when the next tokens are known. */
  unicode?: string;
  start: number;
  end: number;
}

class Refusal extends Error {}

const isIdentStart = (c: string | undefined) => c !== undefined && /[A-Za-z_\u0080-\uffff]/.test(c);
const isIdentCont = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
const isDolqCont = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_\u0080-\uffff]/.test(c);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
/** PostgreSQL's `self` and `op_chars`: each is read as its own token here (only `;`, parentheses and `.` matter). */
const OP_CHARS = ',()[].;:+-*/%^<>=~!@#&|`?';
const NUMBER = /0[xX][0-9A-Fa-f_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?/y;
const lowerAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

function describeChar(c: string): string {
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

/**
 * Reads a '…' body from `from` (just past the opening quote) in `mode`, following string
 * continuation (`'a'` newline `'b'` is one literal). Returns the offset past the literal.
 */
function readQuoted(sql: string, from: number, mode: 'plain' | 'escape', what: string, opened: number): number {
  let i = from;
  for (;;) {
    if (i >= sql.length) throw new Refusal(`an unterminated ${what} starting at character ${opened + 1}`);
    const c = sql[i]!;
    if (mode === 'escape' && c === '\\') {
      i += 2;
      continue;
    }
    if (c !== "'") {
      i++;
      continue;
    }
    if (sql[i + 1] === "'") {
      i += 2;
      continue;
    }
    // Closed; a continuation (white space with a newline, `--` comments allowed, then a
    // quote) goes on in the same mode, as the server's scanner does.
    const next = continuation(sql, i + 1);
    if (next === null) return i + 1;
    i = next + 1;
  }
}

/** The offset of the quote that continues a literal closed just before `from`, or null. */
function continuation(sql: string, from: number): number | null {
  let j = from;
  let newline = false;
  while (j < sql.length) {
    const c = sql[j]!;
    if (c === ' ' || c === '\t' || c === '\f') j++;
    else if (c === '\n' || c === '\r') {
      newline = true;
      j++;
    } else if (sql.startsWith('--', j)) {
      while (j < sql.length && sql[j] !== '\n' && sql[j] !== '\r') j++;
    } else break;
  }
  return newline && sql[j] === "'" ? j : null;
}

/** Decodes a U&"…" name's escapes (`\XXXX`, `\+XXXXXX`, a doubled escape) as the server does. */
function decodeUnicode(body: string, escape: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== escape) {
      out += c;
      continue;
    }
    if (body[i + 1] === escape) {
      out += escape;
      i++;
      continue;
    }
    const long = body[i + 1] === '+';
    const hex = long ? body.slice(i + 2, i + 8) : body.slice(i + 1, i + 5);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== (long ? 6 : 4)) throw new Refusal('an invalid Unicode escape in a U&"…" name');
    const code = parseInt(hex, 16);
    if (code === 0 || code > 0x10ffff) throw new Refusal('an invalid Unicode escape in a U&"…" name');
    out += String.fromCodePoint(code);
    i += long ? 7 : 4;
  }
  return out;
}

/** Tokens, and the comments as [start, end) ranges. Throws Refusal where the scanner would differ or fail. */
function tokenize(sql: string): { tokens: PgToken[]; comments: [number, number][] } {
  const tokens: PgToken[] = [];
  const comments: [number, number][] = [];
  let i = 0;
  const push = (kind: PgToken['kind'], text: string, start: number, end: number, unicode?: string) =>
    tokens.push(unicode === undefined ? { kind, text, start, end } : { kind, text, start, end, unicode });
  while (i < sql.length) {
    const c = sql[i]!;
    const start = i;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (sql.startsWith('--', i)) {
      while (i < sql.length && sql[i] !== '\n' && sql[i] !== '\r') i++;
      comments.push([start, i]);
      continue;
    }
    if (sql.startsWith('/*', i)) {
      // Nested, as PostgreSQL's are: `/* /* */ … */` is one comment.
      let depth = 0;
      while (i < sql.length) {
        if (sql.startsWith('/*', i)) {
          depth++;
          i += 2;
        } else if (sql.startsWith('*/', i)) {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else i++;
      }
      if (depth !== 0) throw new Refusal(`an unterminated /* comment starting at character ${start + 1}`);
      comments.push([start, i]);
      continue;
    }
    const lower = c.toLowerCase();
    if ((lower === 'e' || lower === 'n' || lower === 'b' || lower === 'x') && sql[i + 1] === "'") {
      i = readQuoted(sql, i + 2, lower === 'e' ? 'escape' : 'plain', 'string', start);
      push('string', '', start, i);
      continue;
    }
    if (lower === 'u' && sql[i + 1] === '&' && (sql[i + 2] === "'" || sql[i + 2] === '"')) {
      if (sql[i + 2] === "'") {
        i = readQuoted(sql, i + 3, 'plain', 'string', start);
        push('string', '', start, i);
      } else {
        const { end, body } = readName(sql, i + 3, start);
        i = end;
        push('ident', body, start, i, body);
      }
      continue;
    }
    if (c === "'") {
      i = readQuoted(sql, i + 1, 'plain', 'string', start);
      push('string', '', start, i);
      continue;
    }
    if (c === '"') {
      const { end, body } = readName(sql, i + 1, start);
      i = end;
      push('ident', body, start, i);
      continue;
    }
    if (c === '$') {
      if (/[0-9]/.test(sql[i + 1] ?? ''))
        throw new Refusal(
          `a parameter ('$${sql[i + 1]}…') at character ${i + 1}; parameters cannot be bound here, write the values into the query`,
        );
      // $$ or $tag$ (a tag: a letter, _ or non-ASCII character, then also digits).
      let j = i + 1;
      if (isIdentStart(sql[j])) while (isDolqCont(sql[j])) j++;
      if (sql[j] !== '$') throw new Refusal(`a '$' that opens no dollar-quoted string at character ${i + 1}`);
      const tag = sql.slice(i, j + 1);
      const close = sql.indexOf(tag, j + 1);
      if (close < 0) throw new Refusal(`an unterminated dollar-quoted string ${tag} starting at character ${i + 1}`);
      i = close + tag.length;
      push('string', '', start, i);
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      i += NUMBER.exec(sql)![0].length;
      if (isIdentCont(sql[i]))
        throw new Refusal(`a number run into a name at character ${start + 1}: '${sql.slice(start, Math.min(sql.length, i + 8))}'`);
      push('number', sql.slice(start, i), start, i);
      continue;
    }
    if (isIdentStart(c)) {
      while (isIdentCont(sql[i])) i++;
      push('word', lowerAscii(sql.slice(start, i)), start, i);
      continue;
    }
    if (OP_CHARS.includes(c)) {
      i++;
      push('op', c, start, i);
      continue;
    }
    throw new Refusal(`an unexpected character ${describeChar(c)} at character ${i + 1}`);
  }
  return { tokens: resolveUescape(tokens), comments };
}

/** A "…" name from `from` (past the quote): `""` stands for one quote; empty names do not exist. */
function readName(sql: string, from: number, opened: number): { end: number; body: string } {
  let i = from;
  let body = '';
  for (;;) {
    if (i >= sql.length) throw new Refusal(`an unterminated quoted name starting at character ${opened + 1}`);
    if (sql[i] === '"') {
      if (sql[i + 1] === '"') {
        body += '"';
        i += 2;
        continue;
      }
      if (!body) throw new Refusal(`an empty quoted name "" at character ${opened + 1}`);
      return { end: i + 1, body };
    }
    body += sql[i];
    i++;
  }
}

/** U&"…" names decoded with the default escape; a `UESCAPE` clause is refused (never needed). */
function resolveUescape(tokens: PgToken[]): PgToken[] {
  return tokens.map((t) => {
    if (t.kind === 'word' && t.text === 'uescape')
      throw new Refusal(`UESCAPE at character ${t.start + 1}; write U&"…" with the default \\ escapes, or a plain quoted name`);
    if (t.unicode === undefined) return t;
    return { kind: 'ident', text: decodeUnicode(t.unicode, '\\'), start: t.start, end: t.end };
  });
}

/** Words of other statements, refused wherever they stand bare (quote a column of that name). */
const FORBIDDEN_WORDS: Record<string, string> = {
  insert: 'INSERT changes data',
  update: 'UPDATE changes data',
  delete: 'DELETE changes data',
  merge: 'MERGE changes data',
  truncate: 'TRUNCATE changes data',
  create: 'CREATE changes the schema',
  alter: 'ALTER changes the schema',
  drop: 'DROP changes the schema',
  grant: 'GRANT changes privileges',
  revoke: 'REVOKE changes privileges',
  copy: 'COPY reads or writes files and programs on the server',
  set: 'SET changes settings',
  reset: 'RESET changes settings',
  do: 'DO runs procedural code',
  call: 'CALL runs a procedure',
  execute: 'EXECUTE runs a prepared statement',
  prepare: 'PREPARE makes a statement',
  listen: 'LISTEN waits for notifications',
  notify: 'NOTIFY sends a notification',
  lock: 'LOCK takes table locks',
  into: 'SELECT … INTO creates a table',
  returning: 'RETURNING belongs to a data-changing statement',
  begin: 'BEGIN controls the transaction',
  commit: 'COMMIT controls the transaction',
  rollback: 'ROLLBACK controls the transaction',
  savepoint: 'SAVEPOINT controls the transaction',
  abort: 'ABORT controls the transaction',
  checkpoint: 'CHECKPOINT is server maintenance',
  vacuum: 'VACUUM is table maintenance',
};

/** Functions refused by exact name (lower case, no schema). */
const DENIED_FUNCTIONS: Record<string, string> = {
  pg_read_file: 'reads a file on the server',
  pg_read_binary_file: 'reads a file on the server',
  pg_stat_file: 'looks at a file on the server',
  pg_logdir_ls: 'lists the server’s log folder',
  pg_current_logfile: 'names the server’s log file',
  pg_show_all_file_settings: 'reads the server’s configuration files',
  pg_hba_file_rules: 'reads the server’s configuration files',
  pg_ident_file_mappings: 'reads the server’s configuration files',
  set_config: 'changes a setting',
  pg_reload_conf: 'reloads the server configuration',
  pg_rotate_logfile: 'rotates the server log',
  pg_sleep: 'waits on the server',
  pg_sleep_for: 'waits on the server',
  pg_sleep_until: 'waits on the server',
  pg_cancel_backend: 'signals another session',
  pg_terminate_backend: 'signals another session',
  pg_log_backend_memory_contexts: 'signals another session',
  pg_notify: 'sends a notification',
  pg_switch_wal: 'is server administration',
  pg_promote: 'is server administration',
  pg_create_restore_point: 'is server administration',
  pg_start_backup: 'is server administration',
  pg_stop_backup: 'is server administration',
  pg_backup_start: 'is server administration',
  pg_backup_stop: 'is server administration',
  pg_import_system_collations: 'changes the catalog',
  pg_current_xact_id: 'assigns a transaction id',
  pg_current_xact_id_if_assigned: 'assigns a transaction id',
  nextval: 'advances a sequence',
  setval: 'changes a sequence',
  loread: 'reads a large object',
  lowrite: 'writes a large object',
  ts_stat: 'runs SQL given as text',
  ts_rewrite: 'runs SQL given as text',
  connectby: 'runs SQL built from text',
  http: 'reaches the network',
  invoke: 'reaches the network',
  st_bandfilesize: 'looks at a file on the server',
  st_bandfiletimestamp: 'looks at a file on the server',
};

/** Families refused by prefix (lower case, no schema). */
const DENIED_PREFIXES: [prefix: string, why: string][] = [
  ['dblink', 'reaches another database'],
  ['pg_ls_', 'lists a folder on the server'],
  ['pg_file_', 'reads or writes a file on the server'],
  ['lo_', 'reads or writes large objects or server files'],
  ['pg_advisory', 'takes an advisory lock'],
  ['pg_try_advisory', 'takes an advisory lock'],
  ['txid_', 'touches transaction ids'],
  ['pg_stat_reset', 'resets statistics'],
  ['pg_stat_statements_reset', 'resets statistics'],
  ['pg_wal_replay_', 'is server administration'],
  ['pg_create_', 'is server administration'],
  ['pg_drop_', 'is server administration'],
  ['pg_copy_', 'is server administration'],
  ['pg_replication_', 'is server administration'],
  ['pg_logical_', 'is server administration'],
  ['query_to_xml', 'runs SQL given as text'],
  ['cursor_to_xml', 'reads a cursor as XML'],
  ['table_to_xml', 'reads whole tables as XML'],
  ['schema_to_xml', 'reads whole schemas as XML'],
  ['database_to_xml', 'reads the whole database as XML'],
  ['crosstab', 'runs SQL given as text'],
  ['pgr_', 'runs SQL given as text (pgRouting)'],
  ['st_mapalgebra', 'runs SQL expressions or functions given as text'],
  ['_st_mapalgebra', 'runs SQL expressions or functions given as text'],
  ['http_', 'reaches the network'],
  ['query_export_to_s3', 'reaches the network'],
  ['table_import_from_s3', 'reaches the network'],
];

/** Catalogs holding password hashes, stored credentials or server configuration files. */
const DENIED_RELATIONS = new Set([
  'pg_authid',
  'pg_shadow',
  'pg_user_mapping',
  'pg_user_mappings',
  'pg_largeobject',
  'pg_hba_file_rules',
  'pg_ident_file_mappings',
  'pg_file_settings',
]);

function functionRefusal(name: string): string | null {
  const why = DENIED_FUNCTIONS[name] ?? DENIED_PREFIXES.find(([p]) => name.startsWith(p))?.[1];
  return why ? `${name}() is not allowed: it ${why}` : null;
}

const STARTS = new Set(['select', 'with', 'values', 'table']);
const ROW_LOCK_AFTER_FOR = new Set(['update', 'share', 'no', 'key']);

/** Checks one query for a PostgreSQL server; see the file comment for what passes. */
export function checkServerQuery(sql: string): ServerQueryCheck {
  try {
    return check(sql);
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: `The query was refused: ${err.message}.` };
    throw err;
  }
}

function check(sql: string): ServerQueryCheck {
  if (sql.includes('\u0000')) throw new Refusal('a NUL character');
  const { tokens, comments } = tokenize(sql);
  let end = tokens.length;
  // Trailing semicolons end the one statement; any other is a second statement.
  while (end > 0 && tokens[end - 1]!.kind === 'op' && tokens[end - 1]!.text === ';') end--;
  const body = tokens.slice(0, end);
  if (body.length === 0) throw new Refusal('there is no statement');
  const semicolon = body.find((t) => t.kind === 'op' && t.text === ';');
  if (semicolon) throw new Refusal(`a second statement after the ';' at character ${semicolon.start + 1}; send one query at a time`);

  let first = 0;
  while (body[first]?.kind === 'op' && body[first]!.text === '(') first++;
  const lead = body[first];
  if (!lead || lead.kind !== 'word' || !STARTS.has(lead.text))
    throw new Refusal('only a single SELECT (or WITH … SELECT, VALUES, TABLE) runs on a server');

  let depth = 0;
  const functions = new Set<string>();
  for (let k = 0; k < body.length; k++) {
    const t = body[k]!;
    const next = body[k + 1];
    if (t.kind === 'op') {
      if (t.text === '(') depth++;
      if (t.text === ')' && --depth < 0) throw new Refusal(`an unmatched ')' at character ${t.start + 1}`);
      continue;
    }
    if (t.kind === 'word') {
      const why = FORBIDDEN_WORDS[t.text];
      if (why) throw new Refusal(`${why} (${t.text.toUpperCase()} at character ${t.start + 1}); quote a column of that name ("${t.text}")`);
      if (t.text === 'for' && next?.kind === 'word' && ROW_LOCK_AFTER_FOR.has(next.text))
        throw new Refusal(`FOR ${next.text.toUpperCase()} locks rows; a read takes no row locks`);
    }
    if (t.kind === 'word' || t.kind === 'ident') {
      const name = lowerAscii(t.text);
      if (DENIED_RELATIONS.has(name)) throw new Refusal(`${name} holds credentials or server configuration and is not read`);
      const called = next?.kind === 'op' && next.text === '(';
      // `x.f` is the attribute notation of f(x): the exact names are refused there too.
      const attribute = body[k - 1]?.kind === 'op' && body[k - 1]!.text === '.';
      if (called) {
        const why = functionRefusal(name);
        if (why) throw new Refusal(why);
        functions.add(name);
      } else if (attribute && DENIED_FUNCTIONS[name]) throw new Refusal(`${name}() is not allowed: it ${DENIED_FUNCTIONS[name]}`);
    }
  }
  if (depth !== 0) throw new Refusal("an unclosed '('");

  // Comments blanked (same length, newlines kept); the text ends where the statement ends.
  let text = '';
  let at = 0;
  for (const [s, e] of comments) {
    text += sql.slice(at, s) + sql.slice(s, e).replace(/[^\n\r]/g, ' ');
    at = e;
  }
  text += sql.slice(at);
  text = text.slice(0, body[body.length - 1]!.end);
  return { ok: true, sql: text, functions: [...functions].sort() };
}

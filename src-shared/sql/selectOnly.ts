/**
 * The guard of the read-only SQL tool: one SELECT (or WITH … SELECT) statement, nothing that
 * writes, attaches or configures. Used twice — by the tool's `prepare`, so a refusal reaches
 * the model before anything runs, and by the GIS worker, which trusts no caller. The sources
 * are also opened read-only; this check is the first wall, not the only one.
 */

export type SelectCheck = { ok: true; sql: string } | { ok: false; reason: string };

/** Statement words that change data, schema, files or settings. */
const FORBIDDEN = [
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'UPSERT',
  'MERGE',
  'CREATE',
  'DROP',
  'ALTER',
  'ATTACH',
  'DETACH',
  'PRAGMA',
  'VACUUM',
  'REINDEX',
  'ANALYZE',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
  'TRUNCATE',
  'GRANT',
];

/**
 * SpatiaLite functions that touch files or the database. SpatiaLite's default security
 * refuses most of them already; naming them here keeps the promise independent of that setting.
 */
const FILE_FUNCTIONS = [
  'BLOBTOFILE',
  'BLOBFROMFILE',
  'EXPORTSHP',
  'IMPORTSHP',
  'EXPORTDBF',
  'IMPORTDBF',
  'EXPORTGEOJSON',
  'EXPORTGEOJSON2',
  'IMPORTGEOJSON',
  'EXPORTKML',
  'EXPORTDXF',
  'IMPORTDXF',
  'IMPORTDXFFROMDIR',
  'IMPORTXLS',
  'IMPORTWFS',
  'IMPORTSQL',
  'EXPORTSQL',
  'LOAD_EXTENSION',
  'XB_LOADXML',
  'XB_STOREXML',
  'CREATESPATIALINDEX',
  'DISABLESPATIALINDEX',
  'CREATEMBRCACHE',
  'INITSPATIALMETADATA',
  'ADDGEOMETRYCOLUMN',
  'RECOVERGEOMETRYCOLUMN',
  'DISCARDGEOMETRYCOLUMN',
  'GPKGCREATEBASETABLES',
  'GPKGINSERTEPSGSRID',
  'GPKGADDGEOMETRYCOLUMN',
];

interface Token {
  kind: 'word' | 'punct';
  text: string;
}

/**
 * Words and punctuation outside string literals, quoted identifiers and comments. Returns
 * an error text for an unterminated literal or comment.
 */
function tokenize(sql: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) return 'an unterminated /* comment';
      i = end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k < 0) return `an unterminated ${c === "'" ? 'string' : 'quoted name'} starting at character ${i + 1}`;
        // A doubled quote is an escaped quote inside the literal.
        if (close !== ']' && sql[k + 1] === close) {
          j = k + 2;
          continue;
        }
        i = k + 1;
        break;
      }
      // A quoted identifier or literal counts as one opaque value token.
      tokens.push({ kind: 'punct', text: 'literal' });
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      tokens.push({ kind: 'word', text: sql.slice(i, j).toUpperCase() });
      i = j;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

/** Accepts exactly one SELECT statement; returns it without a trailing semicolon. */
export function checkSelectOnly(sql: string): SelectCheck {
  const tokens = tokenize(sql);
  if (typeof tokens === 'string') return { ok: false, reason: `The SQL has ${tokens}.` };
  let body = tokens;
  while (body.length && body[body.length - 1]!.text === ';') body = body.slice(0, -1);
  if (body.length === 0) return { ok: false, reason: 'The SQL is empty.' };
  if (body.some((t) => t.text === ';')) return { ok: false, reason: 'Only one statement is allowed; remove the semicolons between statements.' };
  const first = body[0]!;
  if (first.kind !== 'word' || (first.text !== 'SELECT' && first.text !== 'WITH')) {
    return { ok: false, reason: `Only a SELECT query is allowed (read-only); this statement starts with ${first.kind === 'word' ? first.text : `'${first.text}'`}.` };
  }
  for (let k = 0; k < body.length; k++) {
    const t = body[k]!;
    if (t.kind !== 'word') continue;
    const next = body[k + 1];
    const isCall = next?.text === '(';
    // replace(x, y, z) is a string function; REPLACE INTO is a statement.
    if (FORBIDDEN.includes(t.text) && !(isCall && t.text === 'REPLACE')) {
      return { ok: false, reason: `Only a SELECT query is allowed (read-only); ${t.text} is not. To keep a result, use inspect_save_query.` };
    }
    if (isCall && FILE_FUNCTIONS.includes(t.text)) {
      return { ok: false, reason: `${t.text}() reads or writes files or database metadata and is not allowed in a read-only query.` };
    }
  }
  return { ok: true, sql: stripTrailingSemicolons(sql) };
}

function stripTrailingSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/, '').trim();
}

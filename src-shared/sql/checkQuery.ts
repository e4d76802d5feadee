/**
 * The capability boundary of the read-only SQL tools (inspect_sql, inspect_save_query): one
 * SELECT over the project's layers, calling only allowed functions. Checked in the tool's
 * `prepare` (a refusal reaches the model as invalid_params with the reason) and again in the
 * GIS worker, which trusts no caller.
 *
 * Why a parser and not a deny-list: the query runs in GDAL's SQLite dialect, where a *table
 * name* can be a datasource (`FROM "/vsicurl/http://host/x.geojson"."x"`, any local file such
 * as the app's own database) and registered functions fetch URLs, open files or write them
 * (ogr_geocode, ogr_datasource_load_layers, gdal_get_pixel_value, SpatiaLite's Import/Export…).
 * Text hidden in a layer can ask the model for such a query, so what may run is listed:
 *   - exactly one statement, starting with SELECT or WITH; no ATTACH, PRAGMA, DML or DDL word;
 *   - every call — a bare or quoted name followed by '(' (comments between are dropped first) —
 *     names a function of the allow-list in sqlFunctions.ts; keywords that precede '(' (IN,
 *     EXISTS, VALUES, AS, USING, CAST, OVER/FILTER after ')', …) are not calls;
 *   - every table reference — after FROM and JOIN, the items of a FROM list, `x IN table` —
 *     is a project layer or a CTE of the statement, unqualified (`a.b` names another database
 *     or datasource) and not a string literal; a table-valued function in FROM must be one of
 *     the allowed ones (json_each, json_tree);
 *   - GDAL's own table-name scanner (ported in gdalLayerScan.ts) finds no datasource in the
 *     text GDAL will receive. That scanner reads comments and [bracket]/`backtick` names as
 *     SQL, so comments are removed from the text that runs (and refused outright when they
 *     name a datasource or URL), and a quote inside a bracket/backtick name is refused because
 *     it would make GDAL misread where the next literal starts. '…' literals are skipped by
 *     GDAL as by SQLite, so a literal may hold any text ('http://…' included).
 */

import { gdalDatasourceRefs } from './gdalLayerScan.js';
import { functionRefusal, isAllowedFunction } from './sqlFunctions.js';
import type { Token } from '../text/lexer.js';
import { quoteIdentifier } from './quote.js';
import { asciiLower, SqlSyntaxError, tokenizeSql, withoutComments } from './sqlTokens.js';

export interface QueryCheckOptions {
  /**
   * The tables the query may read: the project's layer names (ASCII case-insensitive, as
   * SQLite).
   */
  tables: readonly string[];
}

export type QueryCheck =
  | {
      ok: true;
      /** The query to run: comments removed, trailing semicolons dropped. */
      sql: string;
      /** Project tables the query reads, as given in `tables`. */
      tables: string[];
      /** Functions it calls, lower-case. */
      functions: string[];
    }
  | { ok: false; reason: string };

class Refusal extends Error {}

/** Statement words that change data, schema, files or settings, or belong to another statement. */
const FORBIDDEN = new Set([
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
  'EXPLAIN',
  'INTO',
  'RETURNING',
  'TRIGGER',
  'RAISE',
]);

const WHY_FORBIDDEN: Record<string, string> = {
  ATTACH: 'ATTACH opens another database file',
  DETACH: 'DETACH changes the attached databases',
  PRAGMA: 'PRAGMA reads or changes database settings',
};

/** SQLite's reserved words (never identifiers) that may stand before '(' without being a call. */
const NOT_A_CALL = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'EXISTS',
  'VALUES',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'ON',
  'USING',
  'AS',
  'HAVING',
  'LIMIT',
  'IS',
  'BETWEEN',
  'ESCAPE',
  'DISTINCT',
  'ALL',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'JOIN',
  'ORDER',
  'GROUP',
  'COLLATE',
  'NULL',
  'ISNULL',
  'NOTNULL',
]);

/** Words that end a FROM clause at their own nesting level. */
const CLAUSE_END = new Set(['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'UNION', 'INTERSECT', 'EXCEPT', 'SELECT', 'VALUES']);

/** Operators implemented by calling a function: `x LIKE y` is like(y, x). */
const OPERATOR_WORDS = new Set(['LIKE', 'GLOB', 'REGEXP']);

interface Frame {
  /** Inside a FROM clause: a ',' starts another table. */
  from: boolean;
  kind: 'top' | 'paren' | 'call' | 'cast' | 'cte' | 'tablelist' | 'subquery';
  /** In a CAST, after its AS: the words are a type name. */
  castAs?: boolean;
}

type TableContext = 'FROM' | 'JOIN' | ',' | 'IN' | '(';

function show(t: Token | undefined): string {
  if (!t) return 'the end of the query';
  if (t.kind === 'ident') return t.quote === '[' ? `[${t.text}]` : `${t.quote}${t.text}${t.quote}`;
  if (t.kind === 'string') return `'${t.text}'`;
  return t.text;
}

function isOp(t: Token | undefined, text: string): boolean {
  return t?.kind === 'op' && t.text === text;
}

function isWord(t: Token | undefined, ...upper: string[]): boolean {
  return t?.kind === 'word' && upper.includes(t.key);
}

/** Whether `t` can end an operand, so that a following LIKE/OFFSET is an operator, not a call. */
function endsOperand(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'op') return t.text === ')';
  if (t.kind === 'word') return !NOT_A_CALL.has(t.key) && !CLAUSE_END.has(t.key) && !OPERATOR_WORDS.has(t.key);
  return true;
}

/** GDAL reads comments as SQL: a comment naming a datasource or URL is refused, not only removed. */
function hostileText(text: string): boolean {
  if (/\/vsi|:\/\//i.test(text) || /["'`\]]\s*\.\s*["'`[]/.test(text)) return true;
  // Read as GDAL would, and again without quotes, which could hide a name from this scan.
  return gdalDatasourceRefs(text).length > 0 || gdalDatasourceRefs(text.replace(/['"`[\]]/g, ' ')).length > 0;
}

class QueryChecker {
  private readonly stack: Frame[] = [{ from: false, kind: 'top' }];
  private readonly allowed = new Map<string, string>();
  private readonly ctes = new Set<string>();
  private readonly usedTables = new Set<string>();
  private readonly usedFunctions = new Set<string>();
  private expectTable: TableContext | null = null;
  private nextParen: Frame['kind'] = 'paren';

  constructor(
    private readonly tokens: Token[],
    private readonly tables: readonly string[],
  ) {
    for (const t of tables) this.allowed.set(asciiLower(t), t);
  }

  private get frame(): Frame {
    return this.stack[this.stack.length - 1]!;
  }

  private tableList(): string {
    const names = this.tables.map(quoteIdentifier);
    return names.length ? names.join(', ') : '(none: the project has no vector layer or table)';
  }

  run(): { tables: string[]; functions: string[] } {
    const toks = this.tokens;
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k]!;
      if (this.expectTable) {
        const how = this.expectTable;
        this.expectTable = null;
        k = this.tableRef(k, how);
        continue;
      }
      const next = toks[k + 1];
      const prev = toks[k - 1];
      if (t.kind === 'op') {
        if (t.text === '(') {
          this.stack.push({ from: false, kind: this.nextParen });
          this.nextParen = 'paren';
        } else if (t.text === ')') {
          if (this.stack.length === 1) throw new Refusal("The SQL has an unbalanced ')'.");
          const closed = this.stack.pop()!;
          if (closed.kind === 'cte' && isOp(next, ',')) {
            k = this.cteHeader(k + 2);
            this.stack.push({ from: false, kind: 'cte' });
          }
        } else if (t.text === ',' && this.frame.from) {
          this.expectTable = ',';
        }
        continue;
      }
      if (t.kind === 'string' || t.kind === 'blob' || t.kind === 'number') {
        if (isOp(next, '(')) throw new Refusal(`The SQL has ${show(t)} followed by '(': only a function name can be called.`);
        continue;
      }
      if (t.kind === 'ident') {
        if ((t.quote === '[' || t.quote === '`') && /['"]/.test(t.text)) {
          throw new Refusal(
            `The name ${show(t)} contains a quote; GDAL's table-name scanner does not understand ${t.quote === '[' ? '[brackets]' : '`backticks`'} and would misread the rest of the query. Write the name in double quotes ("…", doubling any " inside).`,
          );
        }
        if (isOp(next, '(')) this.call(t.text);
        continue;
      }
      // A bare word: keyword or identifier.
      const U = t.key;
      if (FORBIDDEN.has(U) && !(U === 'REPLACE' && isOp(next, '('))) {
        throw new Refusal(
          `Only a SELECT query is allowed (read-only); ${U} is not${WHY_FORBIDDEN[U] ? ` (${WHY_FORBIDDEN[U]})` : ''}. To keep a result, use inspect_save_query.`,
        );
      }
      if (U === 'MATCH') throw new Refusal('MATCH (full-text search) is not available; use LIKE, GLOB or instr().');
      if (CLAUSE_END.has(U)) this.frame.from = false;
      if (U === 'AS' && this.frame.kind === 'cast') this.frame.castAs = true;
      if (U === 'FROM') {
        // `a IS [NOT] DISTINCT FROM b` is a comparison, not a FROM clause.
        if (isWord(prev, 'DISTINCT') && (isWord(toks[k - 2], 'IS') || (isWord(toks[k - 2], 'NOT') && isWord(toks[k - 3], 'IS')))) continue;
        this.frame.from = true;
        this.expectTable = 'FROM';
        continue;
      }
      if (U === 'JOIN') {
        this.expectTable = 'JOIN';
        continue;
      }
      if (U === 'IN') {
        if (!isOp(next, '(')) this.expectTable = 'IN';
        continue;
      }
      if (U === 'WITH') {
        let j = k + 1;
        if (isWord(toks[j], 'RECURSIVE')) j++;
        k = this.cteHeader(j);
        this.stack.push({ from: false, kind: 'cte' });
        continue;
      }
      if (!isOp(next, '(')) continue;
      // A word before '(': a call unless the grammar makes it a keyword there.
      if (U === 'CAST') {
        this.nextParen = 'cast';
      } else if ((U === 'OVER' || U === 'FILTER') && isOp(prev, ')')) {
        // window / aggregate filter clause
      } else if (U === 'OFFSET' && endsOperand(prev)) {
        // LIMIT n OFFSET (m)
      } else if (OPERATOR_WORDS.has(U) && endsOperand(prev)) {
        // x LIKE (pattern): like() is allowed
      } else if (this.frame.kind === 'cast' && this.frame.castAs) {
        k = this.typeArguments(k + 1);
      } else if (!NOT_A_CALL.has(U)) {
        this.call(t.text);
      }
    }
    if (this.expectTable) throw new Refusal(`The SQL ends where a table name is expected (after ${this.expectTable}).`);
    if (this.stack.length !== 1) throw new Refusal("The SQL has an unbalanced '('.");
    return { tables: [...this.usedTables], functions: [...this.usedFunctions] };
  }

  private call(name: string): void {
    if (!isAllowedFunction(name, 'query')) throw new Refusal(`The function ${functionRefusal(name, 'query')}.`);
    this.usedFunctions.add(asciiLower(name));
    this.nextParen = 'call';
  }

  /** `DECIMAL(10, 2)` in a CAST: only numbers; returns the index of the ')'. */
  private typeArguments(open: number): number {
    for (let j = open + 1; j < this.tokens.length; j++) {
      const t = this.tokens[j]!;
      if (isOp(t, ')')) return j;
      if (t.kind === 'number' || isOp(t, ',') || isOp(t, '+') || isOp(t, '-')) continue;
      throw new Refusal(`A type's size in CAST(… AS type(n)) may hold only numbers; found ${show(t)}.`);
    }
    throw new Refusal("The SQL has an unbalanced '('.");
  }

  /**
   * `name [(col, …)] AS [NOT] [MATERIALIZED] (` starting at `j`; records the name and returns
   * the index of the body's '('.
   */
  private cteHeader(j: number): number {
    const toks = this.tokens;
    const name = toks[j];
    if (!name || (name.kind !== 'word' && name.kind !== 'ident'))
      throw new Refusal(`WITH must be followed by a name for the sub-query; found ${show(name)}.`);
    if (name.kind === 'ident' && (name.quote === '[' || name.quote === '`') && /['"]/.test(name.text)) {
      throw new Refusal(`The name ${show(name)} contains a quote; write it in double quotes.`);
    }
    const key = asciiLower(name.text);
    this.ctes.add(key);
    if (!this.allowed.has(key)) this.allowed.set(key, name.text);
    j++;
    if (isOp(toks[j], '(')) {
      j++;
      while (!isOp(toks[j], ')')) {
        const t = toks[j];
        if (!t || !(t.kind === 'word' || t.kind === 'ident' || isOp(t, ',')))
          throw new Refusal(`The column list of WITH ${show(name)} may hold only column names; found ${show(t)}.`);
        j++;
      }
      j++;
    }
    if (!isWord(toks[j], 'AS')) throw new Refusal(`WITH ${show(name)} must be followed by AS (SELECT …); found ${show(toks[j])}.`);
    j++;
    if (isWord(toks[j], 'NOT')) j++;
    if (isWord(toks[j], 'MATERIALIZED')) j++;
    if (!isOp(toks[j], '('))
      throw new Refusal(`WITH ${show(name)} AS must be followed by a sub-query in parentheses; found ${show(toks[j])}.`);
    return j;
  }

  /** A table reference at `k`; returns the index of its last token. */
  private tableRef(k: number, how: TableContext): number {
    const toks = this.tokens;
    const t = toks[k]!;
    const next = toks[k + 1];
    const after = how === ',' ? 'a comma in FROM' : how === '(' ? "'(' in FROM" : how;
    if (isOp(t, '(')) {
      if (isWord(next, 'SELECT', 'WITH', 'VALUES')) {
        this.stack.push({ from: false, kind: 'subquery' });
      } else {
        this.stack.push({ from: true, kind: 'tablelist' });
        this.expectTable = '(';
      }
      return k;
    }
    if (t.kind === 'string') {
      throw new Refusal(
        `A table may not be given as a string literal ('${t.text}' after ${after}); name a project layer in double quotes. Tables: ${this.tableList()}.`,
      );
    }
    if (t.kind !== 'word' && t.kind !== 'ident') {
      throw new Refusal(`A table name is expected after ${after}; found ${show(t)}. Tables: ${this.tableList()}.`);
    }
    if (t.kind === 'ident' && (t.quote === '[' || t.quote === '`') && /['"]/.test(t.text)) {
      throw new Refusal(`The name ${show(t)} contains a quote; write it in double quotes.`);
    }
    if (isOp(next, '.')) {
      throw new Refusal(
        `The table ${show(t)}.${show(toks[k + 2])} names another database or datasource; only the project's layers can be queried, ` +
          `by their own name without a prefix. Tables: ${this.tableList()}.`,
      );
    }
    if (isOp(next, '(')) {
      if (!isAllowedFunction(t.text, 'table')) throw new Refusal(`The table-valued function ${functionRefusal(t.text, 'table')}.`);
      this.usedFunctions.add(asciiLower(t.text));
      this.nextParen = 'call';
      return k;
    }
    const key = asciiLower(t.text);
    const known = this.allowed.get(key);
    if (known === undefined) {
      if (t.kind === 'word' && (NOT_A_CALL.has(t.key) || CLAUSE_END.has(t.key))) {
        throw new Refusal(`A table name is expected after ${after}; found ${t.text}. Tables: ${this.tableList()}.`);
      }
      throw new Refusal(
        `No table ${show(t)}: only the project's layers (and WITH sub-queries of this query) can be queried. Tables: ${this.tableList()}.`,
      );
    }
    if (!this.ctes.has(key)) this.usedTables.add(known);
    return k;
  }
}

/** Checks one read-only query over `tables`; the refusal's reason names what is wrong and what is allowed. */
export function checkQuery(sql: string, options: QueryCheckOptions): QueryCheck {
  try {
    return { ok: true, ...check(sql, options) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.message };
    if (err instanceof SqlSyntaxError) return { ok: false, reason: `The SQL has ${err.message}.` };
    throw err;
  }
}

function check(sql: string, options: QueryCheckOptions): { sql: string; tables: string[]; functions: string[] } {
  const { tokens, comments } = tokenizeSql(sql);
  for (const c of comments) {
    if (hostileText(c.text)) {
      throw new Refusal(
        'A comment in the SQL names a datasource, path or URL; GDAL reads table names inside comments and would open it. Remove the comment (comments are not needed).',
      );
    }
  }
  let body = tokens;
  while (body.length && isOp(body[body.length - 1], ';')) body = body.slice(0, -1);
  if (body.length === 0) throw new Refusal('The SQL is empty.');
  if (body.some((t) => isOp(t, ';'))) throw new Refusal('Only one statement is allowed; remove the semicolons between statements.');
  const first = body[0]!;
  if (!isWord(first, 'SELECT', 'WITH')) {
    throw new Refusal(
      `Only a SELECT query is allowed (read-only); this statement starts with ${first.kind === 'word' ? first.key : show(first)}.`,
    );
  }
  const result = new QueryChecker(body, options.tables).run();
  const last = body[body.length - 1]!;
  let text = withoutComments(
    sql.slice(0, last.end),
    comments.filter((c) => c.end <= last.end),
  ).trim();
  // GDAL's dialect wants whitespace after the first keyword (`SELECT*` is "Unsupported SQL command").
  const head = first.text.length;
  if (!/^[ \t\n\f\r]/.test(text.slice(head))) text = `${text.slice(0, head)} ${text.slice(head)}`;
  // The text that runs has no comments; the text as written is read too, in case a caller
  // ever hands GDAL the original.
  const refs = [...gdalDatasourceRefs(text), ...gdalDatasourceRefs(sql)];
  if (refs.length) {
    const r = refs[0]!;
    throw new Refusal(
      `GDAL would read ${r.text} as the layer '${r.layer}' of another datasource '${r.datasource}' and open it ` +
        '(its SQLite dialect looks for table names after FROM, JOIN, INTO and UPDATE — even inside longer words such as valid_from — and in ogr_layer_… calls). ' +
        `Only the project's layers can be queried; rename the alias or column that ends in from/join/into/update, or put a space or parenthesis so no 'name.name' follows it. Tables: ${options.tables.map((t) => `"${t}"`).join(', ')}.`,
    );
  }
  return { sql: text, tables: result.tables, functions: result.functions };
}

/**
 * For a query the worker builds around a checked one (`SELECT COUNT(*) FROM (<checked>)`):
 * null when GDAL's scanner finds no other datasource in it, else the reason.
 */
export function gdalDatasourceProblem(sql: string): string | null {
  const refs = gdalDatasourceRefs(sql);
  return refs.length
    ? `GDAL would open another datasource '${refs[0]!.datasource}' for ${refs[0]!.text}; only the project's layers can be queried.`
    : null;
}

/**
 * What GDAL's SQLite dialect will open before SQLite parses anything.
 *
 * OGRSQLiteExecuteSQL (ogr/ogrsf_frmts/sqlite/ogrsqliteexecutesql.cpp) first scans the SQL text
 * with its own small parser (OGR2SQLITEGetPotentialLayerNames) for table names: the word after
 * FROM, JOIN, INTO, UPDATE (matched anywhere, even inside a longer word such as `valid_from`),
 * the items of a FROM list, and the first argument of any `ogr_layer_…(`. A name written
 * `datasource.layer` or `"datasource"."layer"` makes GDAL call GDALDataset::Open(datasource) —
 * a local file, any GDAL connection string or a `/vsicurl/http://…` URL — and expose its layer,
 * whether or not SQLite later accepts the statement. The scanner skips '…' and "…" literals
 * (with doubled quotes) but not comments, [bracket] or `backtick` identifiers, so text there is
 * read as SQL, and a quote inside them shifts what GDAL thinks is a literal (tested against the
 * real GDAL in src-main/gis-worker/inspect/sqlGuard.test.ts).
 *
 * This is a line-by-line port of that scanner, in two variants of its name reader — the
 * current one (GDAL 3.8+) and the older one (GDAL ≤ 3.7, which stops at ')' and does not track
 * quotes inside an unquoted name) — so whichever GDAL the worker links, every datasource it
 * would open is found. The checker refuses a query if either variant finds one.
 */

export interface GdalLayerRef {
  /** The datasource GDAL would open; '' for a layer of the queried dataset itself. */
  datasource: string;
  layer: string;
  /** The text GDAL read, e.g. `"/vsicurl/http://h/x.geojson"."x"`. */
  text: string;
}

type Variant = 'current' | 'legacy';

/** C's isspace() in the C locale. */
function isCSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
}

/** STARTS_WITH_CI: ASCII case-insensitive prefix test at `p`. */
function startsCI(s: string, p: number, word: string): boolean {
  if (p + word.length > s.length) return false;
  for (let i = 0; i < word.length; i++) {
    let c = s.charCodeAt(p + i);
    if (c >= 97 && c <= 122) c -= 32;
    if (c !== word.charCodeAt(i)) return false;
  }
  return true;
}

class Scanner {
  readonly refs: GdalLayerRef[] = [];
  constructor(
    private readonly s: string,
    private readonly variant: Variant,
  ) {}

  /** OGR2SQLITEExtractUnquotedString: returns [name, position after it]. */
  private extractName(p: number): [string, number] {
    const s = this.s;
    let ret = '';
    if (this.variant === 'legacy') {
      let q: string | null = null;
      if (s[p] === '"' || s[p] === "'") {
        q = s[p]!;
        p++;
      }
      while (p < s.length) {
        const c = s[p]!;
        if (q !== null && c === q && s[p + 1] === q) {
          p++;
          ret += q;
        } else if (q !== null && c === q) {
          p++;
          break;
        } else if (q === null && (isCSpace(c) || c === '.' || c === ')' || c === ',')) {
          break;
        } else {
          ret += c;
        }
        p++;
      }
      return [ret, p];
    }
    if (s[p] === '"' || s[p] === "'") {
      const q = s[p]!;
      p++;
      while (p < s.length) {
        if (s[p] === q && s[p + 1] === q) {
          p++;
          ret += q;
        } else if (s[p] === q) {
          p++;
          break;
        } else {
          ret += s[p];
        }
        p++;
      }
      return [ret, p];
    }
    let notATable = false;
    let q: string | null = null;
    let level = 0;
    while (p < s.length) {
      const c = s[p]!;
      if (q !== null && c === q && s[p + 1] === q) {
        ret += c;
        p++;
      } else if (q !== null && c === q) {
        q = null;
      } else if (q === null) {
        if (c === '(') {
          notATable = true;
          level++;
        } else if (c === ')') {
          level--;
          if (level < 0) break;
        } else if (c === '"' || c === "'") {
          q = c;
        } else if (level === 0 && (isCSpace(c) || c === '.' || c === ',')) {
          break;
        }
      }
      ret += s[p];
      p++;
    }
    return [notATable ? '' : ret, p];
  }

  /** OGR2SQLITEExtractLayerDesc + OGR2SQLITEAddLayer. */
  private addLayer(p: number): number {
    const s = this.s;
    while (isCSpace(s[p])) p++;
    const start = p;
    let [name, q] = this.extractName(p);
    let datasource = '';
    let layer = name;
    if (s[q] === '.') {
      datasource = name;
      [name, q] = this.extractName(q + 1);
      layer = name;
    }
    this.refs.push({ datasource, layer, text: s.slice(start, q) });
    return q;
  }

  private skipSpaces(p: number): number {
    while (isCSpace(this.s[p])) p++;
    return p;
  }

  private static startsAsKeyword(s: string, p: number): boolean {
    return ['WHERE', 'GROUP', 'ORDER', 'JOIN', 'UNION', 'INTERSECT', 'EXCEPT', 'LIMIT'].some((k) => startsCI(s, p, k));
  }

  /** OGR2SQLITEGetPotentialLayerNamesInternal: returns the position where it stopped. */
  scan(p: number): number {
    const s = this.s;
    let level = 0;
    let lookForFTableName = false;
    while (p < s.length) {
      const ch = s[p]!;
      if (ch === '(') level++;
      else if (ch === ')') {
        level--;
        if (level < 0) {
          p++;
          break;
        }
      }

      if (ch === "'" || ch === '"') {
        p++;
        while (p < s.length) {
          const c = s[p];
          if (c === ch && s[p + 1] === ch) p++;
          else if (c === ch) {
            p++;
            break;
          }
          p++;
        }
      } else if (startsCI(s, p, 'OGR_LAYER_')) {
        while (p < s.length && s[p] !== '(') p++;
        if (s[p] !== '(') break;
        p++;
        level++;
        p = this.skipSpaces(p);
        p = this.addLayer(p);
      } else if (lookForFTableName && startsCI(s, p, 'F_TABLE_NAME') && (s[p + 12] === '=' || isCSpace(s[p + 12]))) {
        p = this.skipSpaces(p + 12);
        if (s[p] === '=') {
          p = this.skipSpaces(p + 1);
          p = this.extractName(p)[1];
        }
        lookForFTableName = false;
      } else if (startsCI(s, p, 'FROM') && isCSpace(s[p + 4])) {
        p = this.skipSpaces(p + 5);
        if (startsCI(s, p, 'SPATIALINDEX') && isCSpace(s[p + 12])) {
          p += 13;
          lookForFTableName = true;
          continue;
        }
        if (s[p] === '(') p = this.scan(p + 1);
        else p = this.addLayer(p);
        while (p < s.length) {
          if (isCSpace(s[p])) {
            p = this.skipSpaces(p + 1);
            if (startsCI(s, p, 'AS')) p = this.skipSpaces(p + 2);
            // Skip an alias.
            if (p < s.length && s[p] !== ',') {
              if (Scanner.startsAsKeyword(s, p)) break;
              p = this.extractName(p)[1];
            }
          } else if (s[p] === ',') {
            p = this.skipSpaces(p + 1);
            if (s[p] === '(') p = this.scan(p + 1);
            else p = this.addLayer(p);
          } else break;
        }
      } else if ((startsCI(s, p, 'JOIN') || startsCI(s, p, 'INTO')) && isCSpace(s[p + 4])) {
        p = this.addLayer(p + 5);
      } else if (startsCI(s, p, 'UPDATE') && isCSpace(s[p + 6])) {
        p = this.addLayer(p + 7);
      } else if (this.variant === 'legacy' && startsCI(s, p, 'DROP TABLE ')) {
        p = this.addLayer(p + 11);
      } else {
        p++;
      }
    }
    return p;
  }
}

/** Every table name GDAL's scanner reads in `sql`, by either variant. */
export function gdalLayerRefs(sql: string): GdalLayerRef[] {
  const refs: GdalLayerRef[] = [];
  for (const variant of ['current', 'legacy'] as const) {
    const scanner = new Scanner(sql, variant);
    // GDAL scans until the end of the text; a stray ')' at the top level ends one pass, so
    // go on from there as GDAL's outer call would not — reading more is only more careful.
    let p = 0;
    while (p < sql.length) {
      const next = scanner.scan(p);
      p = next > p ? next : p + 1;
    }
    refs.push(...scanner.refs);
  }
  return refs;
}

/** The references that name another datasource — what GDAL would open. */
export function gdalDatasourceRefs(sql: string): GdalLayerRef[] {
  const seen = new Set<string>();
  return gdalLayerRefs(sql).filter((r) => {
    if (r.datasource === '') return false;
    const key = `${r.datasource}\u0000${r.layer}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

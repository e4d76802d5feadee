/**
 * Statistical tables as agencies publish them: a title and notes above the header row,
 * footnotes below the data, missing values written as `NA`, `..` or `:`, Latin-1 text. GDAL
 * 3.6's CSV driver has no option to skip lines, so the worker hands it a cleaned copy in
 * /vsimem (the person's file is only read). Pure parsing lives here; the caching opener is in
 * tableSource.ts.
 */

export interface TableLayout {
  delimiter: string;
  /** Index (0-based record) of the header row. */
  headerRecord: number;
  /** Records after the header that are data (footnotes excluded). */
  dataRecords: number;
  /** Records dropped below the data (footnotes, sources). */
  footerRecords: number;
  /** The width the data rows have (non-empty cells, most common value). */
  width: number;
}

export interface CsvRecord {
  cells: string[];
  /** Per cell: was it written in quotes (a quoted "01" stays text). */
  quoted: boolean[];
}

const DELIMITERS = [',', ';', '\t', '|'];
/** Cells that mean "no value" in published statistics (R, World Bank/ABS, Eurostat). */
const MISSING = new Set(['NA', 'N/A', '..', ':', '...']);

/** Splits delimited text into records (RFC 4180 quoting, newlines inside quotes kept). */
export function parseDelimited(text: string, delimiter: string, maxRecords = Infinity): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let quoted: boolean[] = [];
  let cell = '';
  let cellQuoted = false;
  let inQuotes = false;
  let i = 0;
  const endCell = () => {
    cells.push(cellQuoted ? cell : cell.trim());
    quoted.push(cellQuoted);
    cell = '';
    cellQuoted = false;
  };
  const endRecord = () => {
    endCell();
    records.push({ cells, quoted });
    cells = [];
    quoted = [];
  };
  while (i < text.length && records.length < maxRecords) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
      } else {
        cell += c;
      }
      i++;
      continue;
    }
    if (c === '"' && cell.trim() === '') {
      inQuotes = true;
      cellQuoted = true;
      cell = '';
    } else if (c === delimiter) {
      endCell();
    } else if (c === '\n' || c === '\r') {
      endRecord();
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else if (!(cellQuoted && !inQuotes)) {
      // Text after a closing quote (`"a" b`) is kept only when the cell was not quoted.
      cell += c;
    }
    i++;
  }
  if (records.length < maxRecords && (cell !== '' || cells.length > 0)) endRecord();
  return records;
}

function nonEmpty(r: CsvRecord): number {
  let n = 0;
  for (const c of r.cells) if (c !== '') n++;
  return n;
}

/** The delimiter whose field counts are largest and most regular over the sample. */
export function guessDelimiter(sample: string): string {
  let best = ',';
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const counts = parseDelimited(sample, d, 200)
      .map((r) => r.cells.length)
      .filter((n) => n > 1);
    if (counts.length === 0) continue;
    const freq = new Map<number, number>();
    for (const n of counts) freq.set(n, (freq.get(n) ?? 0) + 1);
    const [mode, times] = [...freq.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    const score = times * Math.log2(mode + 1);
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

/**
 * Finds the header row and the footnotes. The data width is the most common count of
 * non-empty cells; the header is the first record as wide as the data (≥ 60 %) that is
 * followed by two more such records; trailing records with only a cell or two are notes.
 */
export function detectLayout(records: CsvRecord[], delimiter: string): TableLayout {
  const counts = records.map(nonEmpty);
  const freq = new Map<number, number>();
  for (const n of counts.slice(0, 400)) if (n >= 2) freq.set(n, (freq.get(n) ?? 0) + 1);
  const ranked = [...freq.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const width = ranked[0]?.[0] ?? 0;
  if (width < 2) return { delimiter, headerRecord: 0, dataRecords: Math.max(0, records.length - 1), footerRecords: 0, width };
  const wide = Math.max(2, Math.ceil(width * 0.6));

  let header = 0;
  for (let i = 0; i < Math.min(records.length, 400); i++) {
    if (counts[i]! < wide) continue;
    const following = counts
      .slice(i + 1)
      .filter((n) => n > 0)
      .slice(0, 2);
    if (following.every((n) => n >= wide)) {
      header = i;
      break;
    }
  }

  // Notes below the data carry a cell or two; a data row with gaps still carries most cells.
  const noteMax = Math.max(1, Math.floor(width / 3));
  let end = records.length;
  while (end > header + 1 && counts[end - 1]! < wide && counts[end - 1]! <= noteMax) end--;
  return { delimiter, headerRecord: header, dataRecords: end - header - 1, footerRecords: records.length - end, width };
}

/** A number written plainly: no leading zero to lose (codes such as "01" stay text). */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/**
 * True when the text needs no rewrite for GDAL to read it well: no preamble or notes, no
 * missing-value tokens, no numbers in quotes (GDAL is told to keep quoted cells as text).
 * As R's writers do, an unquoted NA is a missing value and a quoted "NA" is text (Namibia's
 * ISO code).
 */
export function isClean(records: CsvRecord[], layout: TableLayout): boolean {
  if (layout.headerRecord > 0 || layout.footerRecords > 0) return false;
  return !records.some((r, k) => k > layout.headerRecord && r.cells.some((c, i) => (r.quoted[i] ? PLAIN_NUMBER.test(c) : MISSING.has(c))));
}

function quote(cell: string, delimiter: string, forceQuote: boolean): string {
  if (forceQuote || cell.includes(delimiter) || /["\r\n]/.test(cell)) return `"${cell.replace(/"/g, '""')}"`;
  return cell;
}

/**
 * The table alone, as comma-separated UTF-8: header and data rows, unquoted missing-value
 * tokens emptied, quoted text kept quoted (so GDAL keeps codes such as "01" as text) and quoted
 * plain numbers unquoted (so a column of "69", "60" is numeric).
 */
export function cleanTable(records: CsvRecord[], layout: TableLayout): string {
  const rows = records.slice(layout.headerRecord, layout.headerRecord + 1 + layout.dataRecords);
  const headerWidth = rows[0]?.cells.length ?? 0;
  const lines = rows.map((r, rowIndex) => {
    const cells = r.cells.slice(0, Math.max(headerWidth, lastNonEmpty(r) + 1));
    return cells
      .map((c, i) => {
        // Header cells quoted: GDAL then takes the row as names even when they look numeric (years).
        if (rowIndex === 0) return quote(c.trim(), ',', true);
        if (!r.quoted[i]) return MISSING.has(c) ? '' : quote(c, ',', false);
        return quote(c, ',', !PLAIN_NUMBER.test(c));
      })
      .join(',');
  });
  return lines.join('\n') + '\n';
}

function lastNonEmpty(r: CsvRecord): number {
  for (let i = r.cells.length - 1; i >= 0; i--) if (r.cells[i] !== '') return i;
  return -1;
}

/** UTF-8 when it decodes as such, else Windows-1252 (what spreadsheet exports mostly are). */
export function decodeText(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text: text.replace(/^\uFEFF/, ''), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

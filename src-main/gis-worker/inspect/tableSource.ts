import { open, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { gdal } from '../gdal.js';
import { cleanTable, decodeText, detectLayout, guessDelimiter, isClean, parseDelimited, type TableLayout } from './delimitedText.js';

/** Up to this size a CSV is read whole and, when needed, cleaned into memory. */
const CLEAN_MAX_BYTES = 32 * 1024 * 1024;
/** Beyond it only the head is read, to find a preamble, and GDAL reads through /vsisubfile. */
const HEAD_BYTES = 256 * 1024;
const CACHE_SIZE = 16;

export interface ResolvedTable {
  /** What GDAL opens: the file itself, a /vsisubfile window of it, or a cleaned copy in /vsimem. */
  gdalPath: string;
  layout: TableLayout | null;
  /** Facts worth telling a person (lines skipped, encoding converted). */
  notes: string[];
}

interface CacheEntry {
  stamp: string;
  resolved: ResolvedTable;
}

/** Cleaned copies, by source path; replaced when the file changes (mtime or size). */
const cache = new Map<string, CacheEntry>();

/**
 * The path GDAL should open for a delimited-text file. The file on disk is only read: a
 * preamble, footnotes, `NA` cells or Latin-1 text are dealt with in a copy in /vsimem that
 * keeps the file's name, so GDAL's layer name stays the file name.
 */
export async function resolveDelimitedSource(path: string): Promise<ResolvedTable> {
  if (path.startsWith('/vsi')) return { gdalPath: path, layout: null, notes: [] };
  let st;
  try {
    st = await stat(path);
  } catch {
    // openSource reports missing files in its own words.
    return { gdalPath: path, layout: null, notes: [] };
  }
  if (!st.isFile() || st.size === 0) return { gdalPath: path, layout: null, notes: [] };
  const stamp = `${st.mtimeMs}:${st.size}`;
  const hit = cache.get(path);
  if (hit && hit.stamp === stamp) {
    cache.delete(path);
    cache.set(path, hit);
    return hit.resolved;
  }
  const resolved = st.size <= CLEAN_MAX_BYTES ? await resolveSmall(path) : await resolveLarge(path, st.size);
  if (hit) releaseEntry(hit);
  cache.set(path, { stamp, resolved });
  while (cache.size > CACHE_SIZE) {
    const [oldest, entry] = cache.entries().next().value as [string, CacheEntry];
    cache.delete(oldest);
    releaseEntry(entry);
  }
  return resolved;
}

function releaseEntry(entry: CacheEntry): void {
  if (!entry.resolved.gdalPath.startsWith('/vsimem/')) return;
  try {
    gdal.vsimem.release(entry.resolved.gdalPath);
  } catch {
    // Already gone.
  }
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function resolveSmall(path: string): Promise<ResolvedTable> {
  const bytes = await readHead(path, CLEAN_MAX_BYTES);
  const { text, encoding } = decodeText(bytes);
  const delimiter = guessDelimiter(text.slice(0, HEAD_BYTES));
  const records = parseDelimited(text, delimiter);
  const layout = detectLayout(records, delimiter);
  if (encoding === 'utf-8' && isClean(records, layout)) return { gdalPath: path, layout, notes: [] };

  const notes = layoutNotes(layout);
  if (encoding !== 'utf-8') notes.push('read as Windows-1252 (the file is not UTF-8)');
  const vsi = `/vsimem/mapwright-table-${randomUUID()}/${basename(path).replace(/\.(tsv|txt)$/i, '.csv')}`;
  gdal.vsimem.set(Buffer.from(cleanTable(records, layout), 'utf8'), vsi);
  return { gdalPath: vsi, layout, notes };
}

/** Large files: skip a preamble by byte offset; notes, `NA` and encoding are left to GDAL. */
async function resolveLarge(path: string, size: number): Promise<ResolvedTable> {
  const head = await readHead(path, HEAD_BYTES);
  const { text } = decodeText(head.subarray(0, lastNewline(head) + 1));
  const delimiter = guessDelimiter(text);
  const records = parseDelimited(text, delimiter);
  const layout = detectLayout(records, delimiter);
  if (layout.headerRecord === 0) return { gdalPath: path, layout, notes: [] };
  const offset = byteOffsetOfRecord(head, layout.headerRecord);
  if (offset === null) return { gdalPath: path, layout, notes: [] };
  return {
    gdalPath: `/vsisubfile/${offset}_${size - offset},${path}`,
    layout,
    notes: [`skipped ${layout.headerRecord} line(s) above the header row`],
  };
}

function lastNewline(buf: Buffer): number {
  const i = buf.lastIndexOf(0x0a);
  return i < 0 ? buf.length - 1 : i;
}

/** Byte offset where record `n` starts, counting newlines outside quotes. */
function byteOffsetOfRecord(buf: Buffer, n: number): number | null {
  let seen = 0;
  let inQuotes = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (b === 0x22) inQuotes = !inQuotes;
    else if (b === 0x0a && !inQuotes && ++seen === n) return i + 1;
  }
  return null;
}

function layoutNotes(layout: TableLayout): string[] {
  const notes: string[] = [];
  if (layout.headerRecord > 0) notes.push(`skipped ${layout.headerRecord} line(s) above the header row`);
  if (layout.footerRecords > 0) notes.push(`skipped ${layout.footerRecords} note line(s) below the data`);
  return notes;
}

import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The sources a local dataset file names inside itself: a VRT's `SrcDataSource` and
 * `SourceFilename`, a GDAL_WMS file's server URL, and the like. GDAL follows them when it
 * opens the file, so they are judged as if named directly — by main's policy (a VRT that
 * reads a URL makes the call a network call) and by the worker's own check (a VRT may not
 * reach the app's files). Relative references are resolved against the file's folder.
 * Files that are not XML, or larger than 8 MiB, name nothing here.
 */
export interface DatasetReferences {
  sources: string[];
  /** SQL inside the file (`SrcSQL`), which could name a datasource as a table or call a file function. */
  sql: string[];
}

const XML_DATASET = /\.(vrt|xml)$/i;
const SCAN_LIMIT = 8 * 1024 * 1024;

export function datasetReferences(path: string): DatasetReferences {
  const text = xmlText(path);
  if (text === null) return { sources: [], sql: [] };
  const base = dirname(path);
  const sources: string[] = [];
  for (const m of text.matchAll(/<(SrcDataSource|SourceFilename|SrcDataset|Filename)\b([^>]*)>([^<]*)</gi)) {
    const raw = unescapeXml(m[3]!.trim());
    if (!raw) continue;
    const relative = /relativeToVRT\s*=\s*["']?1/i.test(m[2]!);
    sources.push(relative && !/^([/\\]|[A-Za-z]:|[A-Za-z][A-Za-z0-9_]*:)/.test(raw) ? resolve(base, raw) : raw);
  }
  // GDAL_WMS / WMTS / TMS service descriptions: their server is a source.
  for (const m of text.matchAll(/<(ServerUrl|ServerURL|URL|GetCapabilitiesUrl)\b[^>]*>([^<]*)</g)) {
    const raw = unescapeXml(m[2]!.trim());
    if (raw) sources.push(raw);
  }
  const sql = [...text.matchAll(/<SrcSQL\b[^>]*>([^<]*)</gi)].map((m) => unescapeXml(m[1]!));
  return { sources, sql };
}

/**
 * The file's text when it is an XML dataset (by extension, or by its first bytes), else null.
 * Every open of a person's file passes here, so other files cost one small read, not a full one.
 */
function xmlText(path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > SCAN_LIMIT) return null;
    if (!XML_DATASET.test(path)) {
      const head = Buffer.alloc(Math.min(256, st.size));
      readSync(fd, head, 0, head.length, 0);
      if (!/^\s*</.test(head.toString('utf8'))) return null;
    }
    return readFileSync(fd, 'utf8');
  } catch {
    return null; // Missing or unreadable: GDAL says so in its own words.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * SQL in a dataset file runs in GDAL's SQLite dialect, where a table name can be another
 * datasource and some functions read files or fetch URLs; none of that may hide in a file.
 */
export function sqlInDatasetProblem(sql: string, privatePaths: { mentionedIn(text: string): boolean }): string | null {
  if (/\/vsi|:\/\//i.test(sql)) return 'names a GDAL virtual file or a URL';
  if (/\b(ogr_\w+|load_extension|readfile|writefile|blobfromfile|blobtofile|import\w*|export\w*)\s*\(/i.test(sql))
    return 'calls a function that reads or writes files or the network';
  if (/"[^"]*[/\\][^"]*"\s*\./.test(sql)) return 'names a file as a table';
  if (privatePaths.mentionedIn(sql)) return "names Mapwright's own files";
  return null;
}

import { open } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { convert, type FormatCallback } from 'html-to-text';
import { z } from 'zod';

/**
 * What web.fetch and web.download make of an answer: the kind of content (from the
 * Content-Type, the URL's extension and the first bytes), HTML reduced to readable text with
 * html-to-text, JSON parsed and capped, and GIS files saved under a fresh name.
 */

/** What the model reads of a page or a JSON answer, in characters; the rest is summarised by its length. */
export const TEXT_CHARS = 8_000;
/** The most links a page's text lists. */
export const MAX_LINKS = 25;

/** A URL the tools accept: http or https, at most 2,000 characters. Anything else is refused before a dialog. */
export const WebUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a valid absolute URL (http:// or https://)' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: `only http:// and https:// URLs may be fetched, not ${url.protocol}//` });
    }
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'a URL with a user name or password is not accepted' });
  })
  .describe('An http:// or https:// URL');

export type ContentKind = 'html' | 'json' | 'text' | 'gis' | 'other';

/** GIS file extensions web.download saves, and the Content-Types that name them. */
export const GIS_EXTENSIONS = ['.geojson', '.json', '.gpkg', '.tif', '.tiff', '.zip', '.fgb', '.kml', '.csv', '.gpx'] as const;
const GIS_BY_TYPE: Record<string, string> = {
  'application/geo+json': '.geojson',
  'application/vnd.geo+json': '.geojson',
  'application/geopackage+sqlite3': '.gpkg',
  'application/x-sqlite3': '.gpkg',
  'image/tiff': '.tif',
  'image/geotiff': '.tif',
  'application/zip': '.zip',
  'application/x-zip-compressed': '.zip',
  'application/flatgeobuf': '.fgb',
  'application/vnd.flatgeobuf': '.fgb',
  'application/vnd.google-earth.kml+xml': '.kml',
  'application/gpx+xml': '.gpx',
  'text/csv': '.csv',
};
/** Extensions that only a GIS reader makes sense of (a .json or .csv may be plain data). */
const GIS_ONLY = new Set(['.geojson', '.gpkg', '.tif', '.tiff', '.fgb', '.kml', '.gpx', '.zip']);

export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function urlExtension(url: string): string {
  try {
    return extname(new URL(url).pathname).toLowerCase();
  } catch {
    return '';
  }
}

/** What an answer is, for web.fetch: the Content-Type first, then the URL's extension. */
export function contentKind(contentType: string | null, url: string): ContentKind {
  const type = mediaType(contentType);
  const ext = urlExtension(url);
  if (GIS_BY_TYPE[type] && type !== 'text/csv') return 'gis';
  if (GIS_ONLY.has(ext) && !type.startsWith('text/html')) return 'gis';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml')) return 'text';
  if (!type && (ext === '.html' || ext === '.htm')) return 'html';
  if (!type && ext === '.json') return 'json';
  if (!type && (ext === '.txt' || ext === '.md')) return 'text';
  return 'other';
}

/**
 * The extension to save a download under: the URL's own when it is a GIS one, else the
 * Content-Type's, else what the first bytes show. null: not a file Mapwright reads.
 */
export function gisExtension(contentType: string | null, url: string, head: Uint8Array): string | null {
  const ext = urlExtension(url);
  if ((GIS_EXTENSIONS as readonly string[]).includes(ext)) return ext === '.tiff' ? '.tif' : ext;
  const byType = GIS_BY_TYPE[mediaType(contentType)];
  if (byType) return byType;
  return sniff(head);
}

/** The GIS format the first bytes show (SQLite, zip, TIFF, FlatGeobuf, GeoJSON, KML, GPX), or null. */
export function sniff(head: Uint8Array): string | null {
  const ascii = Buffer.from(head.subarray(0, 512)).toString('latin1');
  if (ascii.startsWith('SQLite format 3\u0000')) return '.gpkg';
  if (ascii.startsWith('PK\u0003\u0004')) return '.zip';
  if (ascii.startsWith('II*\u0000') || ascii.startsWith('MM\u0000*') || ascii.startsWith('II+\u0000')) return '.tif';
  if (ascii.startsWith('fgb\u0003')) return '.fgb';
  const text = ascii.replace(/^\uFEFF|^\u00ef\u00bb\u00bf/, '').trimStart();
  if (text.startsWith('{') && /"type"\s*:\s*"(FeatureCollection|Feature)"/.test(text)) return '.geojson';
  if (text.startsWith('<') && /<kml[\s>]/.test(text)) return '.kml';
  if (text.startsWith('<') && /<gpx[\s>]/.test(text)) return '.gpx';
  return null;
}

/** A body as text, in the charset its Content-Type names (UTF-8 when none or unknown). */
export function decodeText(body: Uint8Array, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export interface CappedText {
  text: string;
  total_chars: number;
  truncated: boolean;
}

export function capText(text: string, max = TEXT_CHARS): CappedText {
  return text.length <= max
    ? { text, total_chars: text.length, truncated: false }
    : {
        text: `${text.slice(0, max)}\n… [${(text.length - max).toLocaleString('en-US')} more characters]`,
        total_chars: text.length,
        truncated: true,
      };
}

export interface PageText extends CappedText {
  title: string | null;
  /** The page's first links (absolute http/https URLs), without repeats. */
  links: { text: string; url: string }[];
}

/**
 * HTML as readable text (html-to-text): headings, paragraphs, lists and tables kept as text;
 * scripts, styles, images and forms left out; link targets not written inline but listed once
 * (at most MAX_LINKS), so the text stays readable.
 */
export function htmlToReadable(html: string, baseUrl: string, max = TEXT_CHARS): PageText {
  const links: { text: string; url: string }[] = [];
  const seen = new Set<string>();
  let title: string | null = null;
  const sparseLink: FormatCallback = (elem, walk, builder) => {
    const href = typeof elem.attribs?.href === 'string' ? elem.attribs.href : '';
    if (href && links.length < MAX_LINKS) {
      try {
        const url = new URL(href, baseUrl);
        url.hash = '';
        const key = url.toString();
        if ((url.protocol === 'http:' || url.protocol === 'https:') && !seen.has(key)) {
          seen.add(key);
          links.push({ text: textOf(elem).replace(/\s+/g, ' ').trim().slice(0, 120), url: key });
        }
      } catch {
        // Not a URL: the text is kept, the target dropped.
      }
    }
    walk(elem.children, builder);
  };
  const titleOnly: FormatCallback = (elem) => {
    title ??= textOf(elem).replace(/\s+/g, ' ').trim().slice(0, 300) || null;
  };
  const text = convert(html, {
    wordwrap: false,
    baseElements: { selectors: ['title', 'body'], returnDomByDefault: true },
    formatters: { sparseLink, titleOnly },
    selectors: [
      { selector: 'title', format: 'titleOnly' },
      { selector: 'a', format: 'sparseLink' },
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'form', format: 'skip' },
      { selector: 'nav', format: 'skip' },
      { selector: 'svg', format: 'skip' },
      { selector: 'iframe', format: 'skip' },
    ],
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, ...capText(text, max), links };
}

interface DomNode {
  type?: string;
  data?: string;
  children?: DomNode[];
}

function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  return (node.children ?? []).map(textOf).join('');
}

/** A file name stem from a wish or the URL: letters, digits, `_` and `-` only. */
export function safeStem(wish: string | undefined, url: string): string {
  let from = wish ?? '';
  if (!from) {
    try {
      from = basename(new URL(url).pathname);
    } catch {
      from = '';
    }
    from = from.replace(/\.[^.]*$/, '');
  }
  const stem = from
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, 60);
  return stem || 'download';
}

/**
 * Creates `<dir>/<stem><ext>` (or `<stem>-2<ext>`, …) exclusively: never over an existing
 * file. Returns its path and an open handle to write into.
 */
export async function createFresh(dir: string, stem: string, ext: string) {
  for (let i = 1; ; i++) {
    const path = join(dir, `${stem}${i === 1 ? '' : `-${i}`}${ext}`);
    try {
      return { path, handle: await open(path, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || i > 999) throw error;
    }
  }
}

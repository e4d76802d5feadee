/**
 * Small pure text helpers of the print page (issue #15): the attribution line from the map's
 * sources, and the date as printed.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®' };

/** A source's attribution is HTML (links, `&copy;`); the page prints its text only. */
export function attributionText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The attributions of the map's sources, each once, in order, joined for one line. */
export function attributionLine(attributions: readonly (string | undefined)[]): string {
  const seen = new Set<string>();
  for (const a of attributions) {
    const text = a ? attributionText(a) : '';
    if (text) seen.add(text);
  }
  return [...seen].join(' · ');
}

/** The local calendar date, ISO 8601 (`2026-03-04`): the day the person printed it. */
export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The source rectangle of a `width × height` image cropped about its centre to `aspect` (cover). */
export function coverCrop(width: number, height: number, aspect: number): { x: number; y: number; width: number; height: number } {
  if (width / height > aspect) {
    const w = height * aspect;
    return { x: (width - w) / 2, y: 0, width: w, height };
  }
  const h = width / aspect;
  return { x: 0, y: (height - h) / 2, width, height: h };
}

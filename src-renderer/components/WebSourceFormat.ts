/**
 * The "Add web source" form's light checks (the form only; main's `layers.add_web_source`
 * validates for real) and the parameters it sends.
 */
export const WEB_SOURCE_FORM_KINDS = ['xyz', 'tms', 'wms', 'wmts', 'cog', 'fgb'] as const;
export type WebSourceFormKind = (typeof WEB_SOURCE_FORM_KINDS)[number];

export const WEB_SOURCE_KIND_LABEL: Record<WebSourceFormKind, string> = {
  xyz: 'XYZ tiles',
  tms: 'TMS tiles',
  wms: 'WMS',
  wmts: 'WMTS',
  cog: 'Cloud-optimised GeoTIFF',
  fgb: 'FlatGeobuf',
};

export interface WebSourceDraft {
  kind: WebSourceFormKind;
  url: string;
  layer: string;
  name: string;
}

export const EMPTY_WEB_SOURCE_DRAFT: WebSourceDraft = { kind: 'xyz', url: '', layer: '', name: '' };

const TILED = new Set<WebSourceFormKind>(['xyz', 'tms']);

/** WMS and WMTS sources name one of the service's layers. */
export function needsLayerName(kind: WebSourceFormKind): boolean {
  return kind === 'wms' || kind === 'wmts';
}

/** What the URL field suggests for each kind. */
export function urlPlaceholder(kind: WebSourceFormKind): string {
  if (TILED.has(kind)) return 'https://tiles.example.org/{z}/{x}/{y}.png';
  if (kind === 'wms') return 'https://example.org/wms';
  if (kind === 'wmts') return 'https://example.org/wmts?SERVICE=WMTS&REQUEST=GetCapabilities';
  return kind === 'cog' ? 'https://example.org/data/image.tif' : 'https://example.org/data/features.fgb';
}

/** A short hint under the URL field, or null. */
export function urlHint(kind: WebSourceFormKind): string | null {
  if (TILED.has(kind)) return 'A tile template with {z}, {x} and {y}.';
  if (kind === 'wmts') return 'The GetCapabilities URL.';
  return null;
}

/** The first problem with the draft, in the person's words, or null when it may be sent. */
export function webSourceDraftProblem(draft: WebSourceDraft): string | null {
  const url = draft.url.trim();
  if (!url) return 'Enter the URL of the source.';
  if (TILED.has(draft.kind)) {
    const missing = ['{z}', '{x}', '{y}'].filter((p) => !url.includes(p));
    if (missing.length) return `A tile template needs {z}, {x} and {y}; missing ${missing.join(', ')}.`;
  }
  let parsed: URL;
  try {
    parsed = new URL(TILED.has(draft.kind) ? url.replace(/\{[zxy]\}/g, '0') : url);
  } catch {
    return 'The URL is not a valid http:// or https:// address.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Only http:// and https:// URLs can be added.';
  if (needsLayerName(draft.kind) && !draft.layer.trim()) return `A ${draft.kind.toUpperCase()} source needs the layer name.`;
  return null;
}

/** The `layers.add_web_source` arguments for a draft: trimmed, without empty optional fields. */
export function webSourceParams(draft: WebSourceDraft): Record<string, unknown> {
  const params: Record<string, unknown> = { kind: draft.kind, url: draft.url.trim() };
  const layer = draft.layer.trim();
  const name = draft.name.trim();
  if (needsLayerName(draft.kind) && layer) params.layer = layer;
  if (name) params.name = name;
  return params;
}

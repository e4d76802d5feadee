import { i18n } from '../i18n/i18n.js';

/**
 * The "Add web source" form's light checks (the form only; main's `layers.add_web_source`
 * validates for real) and the parameters it sends.
 */
export const WEB_SOURCE_FORM_KINDS = ['xyz', 'tms', 'wms', 'wmts', 'cog', 'fgb'] as const;
export type WebSourceFormKind = (typeof WEB_SOURCE_FORM_KINDS)[number];

/** A kind as the form's select names it, in the interface language (WMS, WMTS and FlatGeobuf are names). */
export function webSourceKindLabel(kind: WebSourceFormKind): string {
  if (kind === 'xyz' || kind === 'tms' || kind === 'cog') return i18n.t(`layers:kind_${kind}`);
  return kind === 'fgb' ? 'FlatGeobuf' : kind.toUpperCase();
}

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
  if (TILED.has(kind)) return i18n.t('layers:hintTiled');
  if (kind === 'wmts') return i18n.t('layers:hintWmts');
  return null;
}

/** The first problem with the draft, in the person's words, or null when it may be sent. */
export function webSourceDraftProblem(draft: WebSourceDraft): string | null {
  const url = draft.url.trim();
  if (!url) return i18n.t('layers:problemEmpty');
  if (TILED.has(draft.kind)) {
    const missing = ['{z}', '{x}', '{y}'].filter((p) => !url.includes(p));
    if (missing.length) return i18n.t('layers:problemTemplate', { missing: missing.join(', ') });
  }
  let parsed: URL;
  try {
    parsed = new URL(TILED.has(draft.kind) ? url.replace(/\{[zxy]\}/g, '0') : url);
  } catch {
    return i18n.t('layers:problemInvalid');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return i18n.t('layers:problemProtocol');
  if (needsLayerName(draft.kind) && !draft.layer.trim()) return i18n.t('layers:problemLayer', { kind: draft.kind.toUpperCase() });
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

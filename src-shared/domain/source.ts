/**
 * Data sources are referenced by path, never copied. A sublayer of a multi-layer
 * file uses GDAL's own `path|layername=NAME` form everywhere (DESIGN §2).
 */
export interface SourceRef {
  path: string;
  sublayer: string | null;
}

const LAYERNAME = /\|layername=([^|]+)$/;

export function parseSource(source: string): SourceRef {
  const m = LAYERNAME.exec(source);
  if (!m) return { path: source.trim(), sublayer: null };
  return { path: source.slice(0, m.index).trim(), sublayer: m[1]!.trim() };
}

export function formatSource(ref: SourceRef): string {
  return ref.sublayer ? `${ref.path}|layername=${ref.sublayer}` : ref.path;
}

/** What GDAL opens for a project layer: its file, with the sublayer when it has one. */
export function layerSource(layer: { source: string; sublayer: string | null }): string {
  return formatSource({ path: layer.source, sublayer: layer.sublayer });
}

/**
 * A layer name for a source: the sublayer, else the file name without its extension. A
 * PostGIS table (`postgis://id|layername=schema.table`, pgSource.ts) is named by its table.
 */
export function defaultLayerName(ref: SourceRef): string {
  // A query kept as a layer (`sql:…`, pgSource.ts) has no name of its own.
  if (ref.sublayer && /^postgis:\/\//i.test(ref.path) && /^sql:/i.test(ref.sublayer)) return 'query';
  // A raster column (`raster:schema.table.column`, names %-escaped): named by its table.
  if (ref.sublayer && /^postgis:\/\//i.test(ref.path) && /^raster:/i.test(ref.sublayer)) {
    const table = ref.sublayer.split('.')[1] ?? 'raster';
    return table.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) || 'raster';
  }
  if (ref.sublayer && /^postgis:\/\//i.test(ref.path)) return ref.sublayer.slice(ref.sublayer.indexOf('.') + 1) || ref.sublayer;
  if (ref.sublayer) return ref.sublayer;
  const file = ref.path.split(/[\\/]/).pop() ?? ref.path;
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

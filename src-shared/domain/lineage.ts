import { z } from 'zod';

/**
 * Issue 17: what made an output file — the tool and its exact definition, the arguments that
 * ran, the inputs with their checksums, and when. Main builds it (src-main/lineage/) and the
 * GIS worker stores it in the file itself (GeoPackage metadata tables, GeoTIFF metadata) or
 * beside it (`<file>.lineage.json`); `inspect_layer_info` reads it back. Nothing secret goes
 * in: PostGIS inputs are named by connection id, URLs lose their credentials.
 */

/** The `format` of every lineage record; a reader refuses any other. */
export const LINEAGE_FORMAT = 'mapwright-lineage/1';
/** `gpkg_metadata.md_standard_uri` of Mapwright's rows (GDAL's own rows use `http://gdal.org`). */
export const LINEAGE_STANDARD_URI = 'https://mapwright.app/lineage/1';
/** `gpkg_metadata.mime_type` of Mapwright's rows. */
export const LINEAGE_MIME = 'application/json';
/** The GeoTIFF dataset metadata item (stored in the file's GDAL_METADATA tag). */
export const LINEAGE_TIFF_ITEM = 'MAPWRIGHT_LINEAGE';
/** Formats that have no metadata of their own get `<file>` + this. */
export const LINEAGE_SIDECAR_SUFFIX = '.lineage.json';
/** The recorded arguments, as JSON, are cut to this many characters (`parametersTruncated`). */
export const MAX_PARAMETERS_CHARS = 32_000;
/** A stored lineage larger than this is not read back (it did not come from Mapwright). */
export const MAX_LINEAGE_CHARS = 256_000;

export const LineageInput = z.object({
  /** The file (or `postgis://<id>`, a URL without credentials) the input was read from. */
  path: z.string().max(4096),
  sublayer: z.string().max(1024).optional(),
  /** Hex SHA-256 of the file's bytes; null when not hashed (`note` says why). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  bytes: z.number().int().nonnegative().nullable(),
  /** The file's modification time (ISO 8601), null when there is no file. */
  modified: z.string().max(40).nullable(),
  /** Why there is no checksum, or what it covers (a Shapefile: the .shp only). */
  note: z.string().max(500).optional(),
});
export type LineageInput = z.infer<typeof LineageInput>;

export const Lineage = z.object({
  format: z.literal(LINEAGE_FORMAT),
  /** The tool's id (`processing.run`) and version. */
  tool: z.string().min(1).max(200),
  version: z.string().max(50),
  /** The SHA-256 of the tool's definition as the registry offered it. */
  definitionHash: z.string().max(128).nullable(),
  /** The validated arguments that ran (cut when huge: `parametersTruncated`). */
  parameters: z.unknown(),
  parametersTruncated: z.boolean().optional(),
  inputs: z.array(LineageInput).max(200),
  /** When the call started and when the file was stamped (ISO 8601). */
  startedAt: z.string().max(40),
  createdAt: z.string().max(40),
  /** `Mapwright <version>`. */
  app: z.string().max(100),
});
export type Lineage = z.infer<typeof Lineage>;

/** Where a lineage is kept for a file of this kind. */
export const LineageStore = z.enum(['gpkg_metadata', 'geotiff_metadata', 'sidecar']);
export type LineageStore = z.infer<typeof LineageStore>;

/**
 * A stored lineage as read back: parsed, or unreadable (damaged, edited by hand, another
 * program's) with the reason — never an exception, so a describe never fails over it.
 */
export function parseStoredLineage(text: string): { ok: true; lineage: Lineage } | { ok: false; reason: string } {
  if (text.length > MAX_LINEAGE_CHARS) return { ok: false, reason: `${text.length} characters, more than Mapwright writes` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const parsed = Lineage.safeParse(json);
  if (parsed.success) return { ok: true, lineage: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `${issue?.path.map(String).join('.') || 'record'}: ${issue?.message ?? 'invalid'}` };
}

/** What `inspect_layer_info` shows: the record without its bulk (checksums shortened to 12 hex digits). */
export function compactLineage(l: Lineage) {
  return {
    tool: l.tool,
    version: l.version,
    created_at: l.createdAt,
    app: l.app,
    parameters: l.parameters,
    ...(l.parametersTruncated ? { parameters_truncated: true } : {}),
    inputs: l.inputs.map((i) => ({
      path: i.path,
      ...(i.sublayer ? { sublayer: i.sublayer } : {}),
      sha256: i.sha256 ? i.sha256.slice(0, 12) : null,
      ...(i.note ? { note: i.note } : {}),
    })),
  };
}

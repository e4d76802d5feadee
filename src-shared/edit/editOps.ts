import { z } from 'zod';

/**
 * One change to a layer's data or schema (issue #14), as the edit tools send it to the GIS
 * worker. The worker previews it read-only (counts and rows before/after, for the dialog) and
 * applies it to the layer's working copy in one SQLite transaction that also journals its
 * inverse under the undo snapshot's id.
 */

export const Scalar = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);
export type Scalar = z.infer<typeof Scalar>;

/** A field name as people write them: no quotes or control characters, not the FID or geometry column. */
export const FieldName = z
  .string()
  .min(1)
  .max(63)
  .refine(
    (n) => !/["'`\\[\]]/.test(n) && ![...n].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127),
    'no quotes, brackets, backslashes or control characters',
  )
  .refine((n) => !/^(fid|geom)$/i.test(n) && n.trim() === n, 'not fid or geom, no leading or trailing spaces');

export const FieldType = z.enum(['integer', 'real', 'text', 'date', 'datetime', 'boolean']);
export type FieldType = z.infer<typeof FieldType>;

/** A geometry as the model or the map gives it: WKT or a GeoJSON geometry object. */
export const GeometryInput = z.union([
  z.object({ wkt: z.string().min(1).max(2_000_000) }),
  z.object({ geojson: z.object({ type: z.string() }).passthrough() }),
]);
export type GeometryInput = z.infer<typeof GeometryInput>;

/** Which features: listed ids, or an attribute filter (checked against the allow-list). */
export const Target = z.union([
  z.object({ fids: z.array(z.number().int()).min(1).max(100_000) }),
  z.object({ where: z.string().min(1).max(4_000) }),
]);
export type Target = z.infer<typeof Target>;

/** Coordinates of an input geometry: lon/lat, or the layer's own CRS. */
export const InputCrs = z.enum(['EPSG:4326', 'layer']);

export const EditOp = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('add_features'),
    features: z
      .array(z.object({ geometry: GeometryInput.nullable(), properties: z.record(z.string(), Scalar) }))
      .min(1)
      .max(10_000),
    crs: InputCrs,
  }),
  z.object({
    kind: z.literal('update_features'),
    target: Target,
    set: z.record(z.string(), Scalar),
    geometry: GeometryInput.nullable(),
    crs: InputCrs,
  }),
  z.object({ kind: z.literal('delete_features'), target: Target }),
  z.object({ kind: z.literal('add_field'), name: FieldName, type: FieldType, default: Scalar }),
  z.object({ kind: z.literal('rename_field'), from: z.string().min(1), to: FieldName }),
  z.object({ kind: z.literal('delete_field'), name: z.string().min(1) }),
  z.object({
    kind: z.literal('calculate_field'),
    name: z.string().min(1),
    expression: z.string().min(1).max(4_000),
    where: z.string().max(4_000).nullable(),
  }),
  z.object({ kind: z.literal('change_type'), name: z.string().min(1), type: FieldType }),
]);
export type EditOp = z.infer<typeof EditOp>;

/** Whether an op changes the table's columns (journalled as statements, not row images). */
export function isSchemaOp(op: EditOp): boolean {
  return op.kind === 'add_field' || op.kind === 'rename_field' || op.kind === 'delete_field' || op.kind === 'change_type';
}

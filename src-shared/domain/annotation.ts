import { z } from 'zod';

/**
 * The project's annotation layer (issue #14): text notes, arrows and highlight polygons drawn
 * above every data layer, in EPSG:4326. The model may add them; only the person moves or
 * deletes them. Each kind has one geometry type, so the map knows how to draw it.
 */
export const AnnotationKind = z.enum(['note', 'arrow', 'highlight']);
export type AnnotationKind = z.infer<typeof AnnotationKind>;

const Lon = z.number().min(-180).max(180);
const Lat = z.number().min(-90).max(90);
/** A lon/lat pair; a third value (height) is dropped, the map draws in 2D. */
const Position = z
  .tuple([Lon, Lat], z.number())
  .transform((p): [number, number] => [p[0], p[1]])
  .describe('[longitude, latitude] in degrees');
/** A closed ring of at least four positions (first = last), as GeoJSON requires. */
const Ring = z
  .array(Position)
  .min(4)
  .refine((r) => r[0]![0] === r.at(-1)![0] && r[0]![1] === r.at(-1)![1], 'a polygon ring must end where it starts');

export const AnnotationPoint = z.object({ type: z.literal('Point'), coordinates: Position });
export const AnnotationLine = z.object({ type: z.literal('LineString'), coordinates: z.array(Position).min(2).max(1000) });
export const AnnotationPolygon = z.object({ type: z.literal('Polygon'), coordinates: z.array(Ring).min(1).max(100) });
export const AnnotationGeometry = z.discriminatedUnion('type', [AnnotationPoint, AnnotationLine, AnnotationPolygon]);
export type AnnotationGeometry = z.infer<typeof AnnotationGeometry>;

/** Which geometry each kind takes: a note marks a point, an arrow runs along a line to its end. */
export const GEOMETRY_OF_KIND: Record<AnnotationKind, AnnotationGeometry['type']> = {
  note: 'Point',
  arrow: 'LineString',
  highlight: 'Polygon',
};

/** `#rrggbb`, lower-cased so equal colours compare equal. */
export const AnnotationColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
  .transform((c) => c.toLowerCase());

export const DEFAULT_ANNOTATION_COLOR = '#e4572e';
export const MAX_ANNOTATION_TEXT = 500;

export const Annotation = z
  .object({
    id: z.string().min(1),
    kind: AnnotationKind,
    text: z.string().max(MAX_ANNOTATION_TEXT),
    geometry: AnnotationGeometry,
    color: AnnotationColor,
    /** Drawing order: later annotations lie on top. */
    order: z.number().int().min(0),
    createdBy: z.enum(['user', 'model', 'client']),
    createdAt: z.string(),
  })
  .superRefine((a, ctx) => {
    const problem = kindMismatch(a.kind, a.geometry);
    if (problem) ctx.addIssue({ code: 'custom', path: ['geometry'], message: problem });
  });
export type Annotation = z.infer<typeof Annotation>;

/** Why a geometry does not fit a kind (the words a tool's refusal uses), or null. */
export function kindMismatch(kind: AnnotationKind, geometry: AnnotationGeometry): string | null {
  const wanted = GEOMETRY_OF_KIND[kind];
  const article = kind === 'arrow' ? 'an' : 'a';
  return geometry.type === wanted ? null : `${article} ${kind} takes a ${wanted} geometry, not a ${geometry.type}`;
}

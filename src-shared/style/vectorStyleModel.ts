import { z } from 'zod';
import { ClassMethod } from './classify.js';
import { RampName } from './colourRamps.js';
import { FilterSyntaxError, parseFilter } from './ruleFilter.js';

/**
 * Vector style models (saved in the project as JSON, so every change here must keep reading
 * what older versions saved: new fields are optional). The compilers in compileVector*.ts turn
 * them into MapLibre layers; the worker computes the classes they carry from the data.
 */

export const Colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

/**
 * Text drawn from each feature. `text` is a template: `{FIELD}` is replaced by the feature's
 * value, anything else is kept (`{NAME} ({ISO_A3})`); a single `{FIELD}` labels with one field.
 */
export const LabelStyle = z
  .object({
    text: z.string().min(1).max(200),
    size: z.number().min(4).max(72),
    colour: Colour,
    haloColour: Colour,
    haloWidth: z.number().min(0).max(10),
    /** point: at the point, or inside the polygon; line: along the line. */
    placement: z.enum(['point', 'line']),
    /** Labels appear from this zoom on. */
    minZoom: z.number().min(0).max(24),
  })
  .superRefine((v, ctx) => {
    if (templateFields(v.text).length === 0)
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'the label text names no field: write {FIELD}' });
  });
export type LabelStyle = z.infer<typeof LabelStyle>;

/** The `{FIELD}` names in a label template, in order of appearance. */
export function templateFields(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
}

/** What every non-heatmap vector style draws with, besides its colour(s). */
const symbolProps = {
  /** Polygon outlines and point rims; lines use the style's colour. */
  stroke: Colour,
  strokeWidth: z.number().min(0).max(20),
  /** Point radius in pixels (line width comes from strokeWidth). */
  pointRadius: z.number().min(0).max(50),
  /** Opacity of the fill or symbol colour; polygons default to 0.7, points and lines to 1. */
  opacity: z.number().min(0).max(1).optional(),
  labels: LabelStyle.optional(),
};

/** One colour for every feature; the renderer draws fill, line or circle by geometry. */
export const SimpleVectorStyle = z.object({
  type: z.literal('simple'),
  fill: Colour,
  ...symbolProps,
});
export type SimpleVectorStyle = z.infer<typeof SimpleVectorStyle>;

export const CategoryValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CategoryValue = z.infer<typeof CategoryValue>;

/** Unique values → colours. Features with a value not listed take `otherColour`, or are hidden when it is null. */
export const CategorizedStyle = z.object({
  type: z.literal('categorized'),
  field: z.string().min(1),
  categories: z
    .array(z.object({ value: CategoryValue, colour: Colour, label: z.string() }))
    .min(1)
    .max(250),
  otherColour: Colour.nullable(),
  ...symbolProps,
});
export type CategorizedStyle = z.infer<typeof CategorizedStyle>;

/** Numeric classes: `breaks` are k+1 ascending edges (see classify.ts), `colours` one per class. */
export const GraduatedStyle = z
  .object({
    type: z.literal('graduated'),
    field: z.string().min(1),
    method: z.union([ClassMethod, z.literal('manual')]),
    breaks: z.array(z.number()).min(2).max(33),
    colours: z.array(Colour).min(1).max(32),
    ramp: RampName,
    /** Per-class point radius or line width, for proportional symbols; absent = one size. */
    sizes: z.array(z.number().min(0).max(50)).optional(),
    /** Features without a number in the field; null hides them. */
    nullColour: Colour.nullable(),
    ...symbolProps,
  })
  .superRefine((v, ctx) => {
    for (let i = 1; i < v.breaks.length; i++) {
      if (!(v.breaks[i]! > v.breaks[i - 1]!) && !(v.breaks.length === 2 && v.breaks[0] === v.breaks[1])) {
        ctx.addIssue({ code: 'custom', path: ['breaks'], message: 'breaks must be ascending' });
        break;
      }
    }
    if (v.colours.length !== v.breaks.length - 1)
      ctx.addIssue({ code: 'custom', path: ['colours'], message: `${v.breaks.length - 1} classes need as many colours` });
    if (v.sizes && v.sizes.length !== v.colours.length) ctx.addIssue({ code: 'custom', path: ['sizes'], message: 'one size per class' });
  });
export type GraduatedStyle = z.infer<typeof GraduatedStyle>;

/** A filter of the rule language (ruleFilter.ts), checked when parsed. */
export const RuleFilterText = z
  .string()
  .min(1)
  .max(2000)
  .superRefine((text, ctx) => {
    try {
      parseFilter(text);
    } catch (err) {
      if (!(err instanceof FilterSyntaxError)) throw err;
      ctx.addIssue({ code: 'custom', message: `filter: ${err.message}` });
    }
  });

/** Rules are tried in order; a feature takes the first that matches, else `elseColour` (or is hidden). */
export const RuleBasedStyle = z.object({
  type: z.literal('rules'),
  rules: z
    .array(z.object({ filter: RuleFilterText, label: z.string(), colour: Colour, size: z.number().min(0).max(50).optional() }))
    .min(1)
    .max(50),
  elseColour: Colour.nullable(),
  elseLabel: z.string().optional(),
  ...symbolProps,
});
export type RuleBasedStyle = z.infer<typeof RuleBasedStyle>;

/** What a heatmap's radius is measured in: screen pixels, or metres on the ground at every zoom. */
export const HeatmapRadiusUnits = z.enum(['pixels', 'meters']);
export type HeatmapRadiusUnits = z.infer<typeof HeatmapRadiusUnits>;
/** The radius allowed in each unit: MapLibre's pixels from 1; up to 1000 km on the ground. */
export const HEATMAP_RADIUS_LIMITS: Record<HeatmapRadiusUnits, { min: number; max: number }> = {
  pixels: { min: 1, max: 200 },
  meters: { min: 1, max: 1_000_000 },
};

/** Point density. `weightMax` (from the data) maps the weight field onto 0…1. */
export const HeatmapStyle = z
  .object({
    type: z.literal('heatmap'),
    /** In `radiusUnits`. */
    radius: z.number().min(1).max(HEATMAP_RADIUS_LIMITS.meters.max),
    /** Absent: pixels (what older projects saved). */
    radiusUnits: HeatmapRadiusUnits.optional(),
    intensity: z.number().min(0.01).max(20),
    weightField: z.string().nullable(),
    weightMax: z.number().nullable(),
    ramp: RampName,
    invert: z.boolean().optional(),
    opacity: z.number().min(0).max(1).optional(),
  })
  .superRefine((v, ctx) => {
    const { min, max } = HEATMAP_RADIUS_LIMITS[v.radiusUnits ?? 'pixels'];
    if (v.radius < min || v.radius > max)
      ctx.addIssue({ code: 'custom', path: ['radius'], message: `a radius in ${v.radiusUnits ?? 'pixels'} is ${min} to ${max}` });
  });
export type HeatmapStyle = z.infer<typeof HeatmapStyle>;

const FourBreaks = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** Two numeric fields, three classes each (quantiles from the data), coloured from a 3×3 palette. */
export const BivariateStyle = z.object({
  type: z.literal('bivariate'),
  fieldX: z.string().min(1),
  fieldY: z.string().min(1),
  breaksX: FourBreaks,
  breaksY: FourBreaks,
  /** index = xClass + 3·yClass (see BIVARIATE_PALETTE). */
  palette: z.array(Colour).length(9),
  nullColour: Colour.nullable(),
  ...symbolProps,
});
export type BivariateStyle = z.infer<typeof BivariateStyle>;

/**
 * Polygons raised in 3D (MapLibre fill-extrusion): each feature's height in metres is its
 * numeric `field` × `scale`; features without a number stay flat. One colour, like `simple`.
 */
export const ExtrudeStyle = z.object({
  type: z.literal('extrude'),
  field: z.string().min(1),
  scale: z.number().positive().max(1e9),
  fill: Colour,
  ...symbolProps,
});
export type ExtrudeStyle = z.infer<typeof ExtrudeStyle>;

export const VECTOR_STYLE_TYPES = ['simple', 'categorized', 'graduated', 'rules', 'heatmap', 'bivariate', 'extrude'] as const;

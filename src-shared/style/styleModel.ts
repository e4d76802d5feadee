import { z } from 'zod';

const Colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

/** One colour for every feature; the renderer draws fill, line or circle by geometry. */
export const SimpleVectorStyle = z.object({
  type: z.literal('simple'),
  fill: Colour,
  stroke: Colour,
  strokeWidth: z.number().min(0).max(20),
  pointRadius: z.number().min(0).max(50),
});
export type SimpleVectorStyle = z.infer<typeof SimpleVectorStyle>;

/** Single-band stretch rendered by the worker into PNG tiles. */
export const GreyRasterStyle = z.object({
  type: z.literal('grey'),
  band: z.number().int().min(1),
  /** null = the band's own min/max. */
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type GreyRasterStyle = z.infer<typeof GreyRasterStyle>;

export const LayerStyle = z.discriminatedUnion('type', [SimpleVectorStyle, GreyRasterStyle]);
export type LayerStyle = z.infer<typeof LayerStyle>;

/** A readable palette; a new layer takes the next colour so layers differ at a glance. */
const PALETTE = ['#e4572e', '#17bebb', '#ffc914', '#76b041', '#8e44ad', '#2e86de', '#d35400', '#c0392b'];

export function defaultVectorStyle(index: number): SimpleVectorStyle {
  const fill = PALETTE[index % PALETTE.length]!;
  return { type: 'simple', fill, stroke: '#222222', strokeWidth: 1, pointRadius: 5 };
}

export function defaultRasterStyle(): GreyRasterStyle {
  return { type: 'grey', band: 1, min: null, max: null };
}

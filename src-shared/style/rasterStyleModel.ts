import { z } from 'zod';
import { RampName } from './colourRamps.js';

/**
 * Raster style models. The worker applies them when it renders a tile (renderRasterTile.ts);
 * the map only shows the PNGs. Nodata (the band's nodata value, or outside the raster) is
 * transparent in every style. A null min/max means "work it out from the data" — the band's
 * min/max for grey, the 2–98 % cumulative cut for the others — but the style tools store the
 * numbers they computed, so the legend can show them.
 */

const Band = z.number().int().min(1);

/**
 * The values a band is stretched between; null = from the data (grey: the band's own min/max;
 * pseudocolor and rgb: the 2 % and 98 % cumulative cut).
 */
const stretch = {
  min: z.number().nullable(),
  max: z.number().nullable(),
};

/**
 * The raster as the map's 3D ground (MapLibre terrain from its band-1 elevations, served as
 * raster-dem tiles by `tiles/ID/dem/Z/X/Y.png`). Kept in the style so it is saved with the
 * project and undone like any restyle; optional, so older projects read unchanged. One layer
 * at a time: map.set_terrain clears it from the others.
 */
export const TerrainSettings = z.object({
  /** Vertical exaggeration of the heights (1 = true scale). */
  exaggeration: z.number().min(0).max(100),
  /** Also draw MapLibre's own shaded relief from the same elevations. */
  hillshade: z.boolean(),
  /** The view's tilt in degrees, applied when the terrain comes on. */
  pitch: z.number().min(0).max(85),
});
export type TerrainSettings = z.infer<typeof TerrainSettings>;

/** Every raster style may carry the terrain; it changes nothing in the colour tiles. */
const terrain = { terrain: TerrainSettings.optional() };

/** Single-band linear stretch to grey. */
export const GreyRasterStyle = z.object({
  type: z.literal('grey'),
  band: Band,
  ...stretch,
  ...terrain,
});
export type GreyRasterStyle = z.infer<typeof GreyRasterStyle>;

/** Single band through a colour ramp between min and max (clamped beyond). */
export const PseudocolorRasterStyle = z.object({
  type: z.literal('pseudocolor'),
  band: Band,
  ramp: RampName,
  invert: z.boolean(),
  ...stretch,
  ...terrain,
});
export type PseudocolorRasterStyle = z.infer<typeof PseudocolorRasterStyle>;

/** Shaded relief of an elevation band, computed per tile (Horn's method, as gdaldem). */
export const HillshadeRasterStyle = z.object({
  type: z.literal('hillshade'),
  band: Band,
  /** Direction the light comes from, degrees clockwise from north (315 = north-west). */
  azimuth: z.number().min(0).max(360),
  /** Height of the light above the horizon, degrees. */
  altitude: z.number().min(0).max(90),
  /** Vertical exaggeration; also converts elevation units (0.3048 for feet). */
  zFactor: z.number().positive().max(1000),
  ...terrain,
});
export type HillshadeRasterStyle = z.infer<typeof HillshadeRasterStyle>;

export const RgbChannel = z.object({
  band: Band,
  ...stretch,
});
export type RgbChannel = z.infer<typeof RgbChannel>;

/** Three bands as red, green and blue, each stretched on its own. */
export const RgbRasterStyle = z.object({
  type: z.literal('rgb'),
  red: RgbChannel,
  green: RgbChannel,
  blue: RgbChannel,
  ...terrain,
});
export type RgbRasterStyle = z.infer<typeof RgbRasterStyle>;

export const RasterStyle = z.discriminatedUnion('type', [GreyRasterStyle, PseudocolorRasterStyle, HillshadeRasterStyle, RgbRasterStyle]);
export type RasterStyle = z.infer<typeof RasterStyle>;

export const RASTER_STYLE_TYPES = ['grey', 'pseudocolor', 'hillshade', 'rgb'] as const;

export function isRasterStyle(style: { type: string }): style is RasterStyle {
  return (RASTER_STYLE_TYPES as readonly string[]).includes(style.type);
}

/** The bands a style reads. */
export function rasterStyleBands(style: RasterStyle): number[] {
  return style.type === 'rgb' ? [style.red.band, style.green.band, style.blue.band] : [style.band];
}

/** The default cumulative cut, in percent, as desktop GIS use it. */
export const CUMULATIVE_CUT: readonly [number, number] = [2, 98];

/** The style without its terrain: what the colour tiles depend on (their URL hash and cache key). */
export function colourOnly(style: RasterStyle): RasterStyle {
  if (!style.terrain) return style;
  const { terrain: _terrain, ...rest } = style;
  return rest as RasterStyle;
}

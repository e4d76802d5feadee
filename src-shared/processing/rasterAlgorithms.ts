import { z } from 'zod';
import type { AlgorithmSpec } from './algorithmSpec.js';
import { defineRasterAlgorithm } from './algorithmSpec.js';
import { newFieldName } from './fieldParams.js';
import { epsgParam as epsg, layerParam as layer } from './params.js';
import { parseRasterExpression } from './rasterExpression.js';

const band = z.number().int().min(1).default(1).describe('Band number, from 1');
const resampling = z
  .enum(['nearest', 'bilinear', 'cubic', 'cubicspline', 'lanczos', 'average', 'mode'])
  .default('nearest')
  .describe('Resampling: nearest keeps values (classes, counts); bilinear or cubic for continuous data such as elevation');
const computeEdges = z
  .boolean()
  .default(true)
  .describe('Compute the outermost pixels too (from the pixels there are); false leaves them nodata, as plain gdaldem does');
const demAlgorithm = z
  .enum(['Horn', 'ZevenbergenThorne'])
  .default('Horn')
  .describe('Gradient method: Horn (3×3, smoother, the usual choice) or ZevenbergenThorne (for smooth terrain)');
const zFactor = z
  .number()
  .positive()
  .default(1)
  .describe('Vertical exaggeration, or unit conversion when elevations are not in metres (0.3048 for feet)');
const DEM_NOTE =
  'Elevations are taken as metres; horizontal units come from the CRS. On a geographic (degree) DEM the pixel ' +
  'size is converted to metres per latitude (WGS 84 ellipsoid, in strips of rows thin enough that the scale ' +
  'changes under 0.1 % in one), so no reprojection is needed first.';

export const resample = defineRasterAlgorithm({
  id: 'resample',
  title: 'Resample raster',
  description:
    'Resamples a raster to a new pixel size (gdalwarp -tr) in its own CRS units — degrees for a geographic raster, ' +
    'metres for a projected one. Finer pixels mean a much larger file and a longer job: say so before running. ' +
    'Output: a new tiled, compressed GeoTIFF.',
  params: z.object({
    input: layer,
    resolution: z.number().positive().describe('Target pixel size in the raster CRS units'),
    method: z
      .enum(['nearest', 'bilinear', 'cubic', 'average', 'mode'])
      .default('bilinear')
      .describe('Resampling: nearest keeps values (classes); bilinear/cubic for continuous data; average/mode when making pixels coarser'),
  }),
});

export const warp = defineRasterAlgorithm({
  id: 'warp',
  title: 'Warp (reproject) raster',
  description:
    'Reprojects a raster to another CRS (gdalwarp -t_srs), optionally at a new pixel size in the target CRS units. ' +
    'Output: a new tiled, compressed GeoTIFF with the same bands; pixels outside the source are nodata.',
  params: z.object({
    input: layer,
    target_crs: epsg.describe("Target CRS, e.g. 'EPSG:32632'"),
    resolution: z
      .number()
      .positive()
      .optional()
      .describe('Pixel size in the target CRS units; default: GDAL keeps about the same number of pixels'),
    method: resampling,
  }),
});

export const mosaic = defineRasterAlgorithm({
  id: 'mosaic',
  title: 'Mosaic rasters',
  description:
    'Merges several rasters with the same bands into one (like gdal_merge / gdalwarp with several inputs). ' +
    'Where they overlap, the later input wins. All are brought into the first raster’s CRS at the finest input ' +
    'pixel size unless a resolution is given. Output: a new tiled, compressed GeoTIFF; gaps between inputs are ' +
    'nodata (0 when no input has a nodata value and none is given).',
  params: z.object({
    inputs: z.array(layer).min(2).max(500).describe('The rasters to merge, in drawing order (later ones on top)'),
    resolution: z.number().positive().optional().describe('Pixel size in the first raster’s CRS units; default: the finest input'),
    method: resampling,
    nodata: z.number().optional().describe('Nodata value of the output; default: the inputs’ own nodata value'),
  }),
  layerParams: ['inputs'],
});

export const clipRaster = defineRasterAlgorithm({
  id: 'clip_raster',
  title: 'Clip raster',
  description:
    'Cuts a raster to a bounding box (pixels kept as they are, no resampling) or to the polygons of a mask layer ' +
    '(pixels outside them become nodata; crop_to_cutline also shrinks the extent to the polygons). Give exactly ' +
    'one of bbox or mask. Output: a new tiled, compressed GeoTIFF.',
  params: z
    .object({
      input: layer,
      bbox: z
        .tuple([z.number(), z.number(), z.number(), z.number()])
        .optional()
        .describe('[xmin, ymin, xmax, ymax] in bbox_crs (lon/lat order for EPSG:4326)'),
      bbox_crs: epsg.optional().describe("CRS of bbox, e.g. 'EPSG:4326'; default: the raster’s own CRS"),
      mask: layer.optional().describe('Polygon layer (id or name) to clip to, in any CRS'),
      crop_to_cutline: z.boolean().default(true).describe('With mask: shrink the output extent to the mask polygons'),
      all_touched: z
        .boolean()
        .default(false)
        .describe('With mask: keep every pixel the polygons touch, not only those whose centre is inside'),
    })
    .refine((p) => (p.bbox === undefined) !== (p.mask === undefined), { message: 'give exactly one of bbox or mask' })
    .refine((p) => !p.bbox || (p.bbox[0] < p.bbox[2] && p.bbox[1] < p.bbox[3]), {
      message: 'bbox must be [xmin, ymin, xmax, ymax] with xmin < xmax and ymin < ymax',
    }),
  layerParams: ['input', 'mask'],
  layerKinds: { mask: 'vector' },
});

export const hillshade = defineRasterAlgorithm({
  id: 'hillshade',
  title: 'Hillshade',
  description:
    'Shaded relief of a DEM (gdaldem hillshade): grey values 1–255 lit from azimuth/altitude, 0 = nodata. ' +
    `${DEM_NOTE} Output: a new tiled, compressed Byte GeoTIFF.`,
  params: z.object({
    input: layer,
    band,
    azimuth: z.number().min(0).max(360).default(315).describe('Direction of the light in degrees clockwise from north (315 = north-west)'),
    altitude: z.number().min(0).max(90).default(45).describe('Height of the light above the horizon in degrees'),
    z_factor: zFactor,
    mode: z
      .enum(['standard', 'multidirectional', 'combined'])
      .default('standard')
      .describe('standard: one light; multidirectional: four lights (no azimuth); combined: shading mixed with slope'),
    algorithm: demAlgorithm,
    compute_edges: computeEdges,
  }),
});

export const slope = defineRasterAlgorithm({
  id: 'slope',
  title: 'Slope',
  description:
    `Slope of a DEM (gdaldem slope) in degrees (0–90) or percent (100 = 45°); nodata is -9999. ${DEM_NOTE} ` +
    'Output: a new tiled, compressed Float32 GeoTIFF.',
  params: z.object({
    input: layer,
    band,
    units: z.enum(['degrees', 'percent']).default('degrees').describe('Slope as an angle in degrees or as a percent rise'),
    z_factor: zFactor,
    algorithm: demAlgorithm,
    compute_edges: computeEdges,
  }),
});

export const aspect = defineRasterAlgorithm({
  id: 'aspect',
  title: 'Aspect',
  description:
    'Aspect of a DEM (gdaldem aspect): the compass direction each slope faces, 0–360° clockwise from north ' +
    `(90 = east); flat pixels are -9999 (nodata) unless zero_for_flat. ${DEM_NOTE} Output: a new tiled, compressed Float32 GeoTIFF.`,
  params: z.object({
    input: layer,
    band,
    zero_for_flat: z.boolean().default(false).describe('Give flat pixels 0 instead of nodata'),
    algorithm: demAlgorithm,
    compute_edges: computeEdges,
  }),
});

export const contours = defineRasterAlgorithm({
  id: 'contours',
  title: 'Contour lines',
  description:
    'Contour lines of a DEM band (gdal_contour) at base + k × interval, in the raster’s units of value. ' +
    'Output: a new GeoPackage line layer with an id field and the level in the named attribute.',
  params: z.object({
    input: layer,
    band,
    interval: z.number().positive().describe('Value difference between two contour lines, e.g. 10 (metres for a DEM in metres)'),
    base: z.number().default(0).describe('A level that gets a line; the others are base ± k × interval'),
    attribute: newFieldName.default('elev').describe('Name of the field holding each line’s level'),
  }),
  output: 'vector',
});

export const polygonize = defineRasterAlgorithm({
  id: 'polygonize',
  title: 'Polygonize raster',
  description:
    'Turns connected areas of equal pixel value into polygons (gdal_polygonize), nodata excluded. Meant for ' +
    'classified rasters (land cover, zones, a reclassified DEM); a continuous raster gives about one polygon per ' +
    'pixel, so reclassify it first (raster_calculator). Output: a new GeoPackage polygon layer with the value field.',
  params: z.object({
    input: layer,
    band,
    connectedness: z
      .union([z.literal(4), z.literal(8)])
      .default(4)
      .describe('4: pixels touching by an edge are connected; 8: by a corner too'),
    field: newFieldName.default('value').describe('Name of the field holding each polygon’s pixel value'),
  }),
  output: 'vector',
});

export const rasterize = defineRasterAlgorithm({
  id: 'rasterize',
  title: 'Rasterize vector layer',
  description:
    'Burns a vector layer into a new raster (gdal_rasterize) over the layer’s extent, at a pixel size in the ' +
    'layer’s CRS units (degrees for EPSG:4326): a fixed burn_value, or each feature’s numeric attribute; ' +
    'pixels no feature covers are nodata. A pixel is burnt when its centre is inside (or any touch, all_touched). ' +
    'Output: a new tiled, compressed GeoTIFF in the layer’s CRS.',
  params: z
    .object({
      input: layer,
      resolution: z.number().positive().describe('Pixel size in the layer CRS units (metres if projected, degrees if geographic)'),
      burn_value: z.number().optional().describe('Value burnt for every feature; default 1 when no attribute is given'),
      attribute: z.string().min(1).optional().describe('Numeric field whose value each feature burns (instead of burn_value)'),
      data_type: z.enum(['Byte', 'Int16', 'UInt16', 'Int32', 'Float32', 'Float64']).default('Float32').describe('Pixel type of the output'),
      nodata: z.number().optional().describe('Value of pixels no feature covers; default 0 for Byte, else -9999'),
      all_touched: z.boolean().default(false).describe('Burn every pixel a feature touches, not only those whose centre is inside'),
    })
    .refine((p) => p.burn_value === undefined || p.attribute === undefined, { message: 'give burn_value or attribute, not both' }),
  layerKinds: { input: 'vector' },
});

export const ZONAL_STATS = ['count', 'sum', 'mean', 'min', 'max'] as const;

export const zonalStatistics = defineRasterAlgorithm({
  id: 'zonal_statistics',
  title: 'Zonal statistics',
  description:
    'For each polygon of a zones layer, statistics of the raster pixels whose centre lies inside it (nodata ' +
    'excluded): count, sum, mean, min, max. Zones may overlap and be in another CRS than the raster. Output: a ' +
    'new GeoPackage copy of the zones layer with new fields <prefix><stat>; a zone without a valid pixel gets count 0 ' +
    'and null mean/min/max.',
  params: z.object({
    zones: layer.describe('Polygon layer (id or name) whose features are the zones'),
    raster: layer.describe('Raster layer (id or name) to summarise'),
    band,
    stats: z
      .array(z.enum(ZONAL_STATS))
      .min(1)
      .default([...ZONAL_STATS])
      .describe('Statistics to add as fields'),
    prefix: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/, 'letters, digits, _')
      .default('z_')
      .describe('Prefix of the new field names (z_mean, …)'),
    all_touched: z
      .boolean()
      .default(false)
      .describe('Count every pixel a zone touches, not only those whose centre is inside (for zones only a few pixels wide)'),
  }),
  layerParams: ['zones', 'raster'],
  layerKinds: { zones: 'vector' },
  output: 'vector',
});

export const rasterCalculator = defineRasterAlgorithm({
  id: 'raster_calculator',
  title: 'Raster calculator',
  description:
    'Computes a new single-band raster from an expression over bands of one or more rasters: A1 is band 1 of ' +
    'the first input, B1 band 1 of the second, … Allowed: numbers, + - * / ( ), comparisons < <= > >= == != ' +
    '(1 or 0), min(a,b,…), max(a,b,…), abs(x), sqrt(x), where(cond, a, b). E.g. NDVI: (A4 - A3) / (A4 + A3); ' +
    'classes: where(A1 > 500, 2, 1). Other inputs are resampled onto the first raster’s grid. A pixel is nodata ' +
    'where any input used is nodata or the result is not a finite number (division by 0). Output: a new tiled, ' +
    'compressed GeoTIFF on the first raster’s grid.',
  params: z
    .object({
      inputs: z.array(layer).min(1).max(26).describe('Rasters (ids or names): the first is A, the second B, …'),
      expression: z
        .string()
        .min(1)
        .superRefine((text, ctx) => {
          const parsed = parseRasterExpression(text);
          if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `invalid expression: ${parsed.error}` });
        })
        .describe('The expression, e.g. (A4 - A3) / (A4 + A3)'),
      data_type: z.enum(['Byte', 'Int16', 'UInt16', 'Int32', 'Float32', 'Float64']).default('Float32').describe('Pixel type of the output'),
      nodata: z.number().default(-9999).describe('Nodata value of the output (use 0 or 255 for Byte)'),
      method: resampling.describe('How inputs after the first are resampled onto its grid'),
    })
    .superRefine((p, ctx) => {
      const parsed = parseRasterExpression(p.expression);
      if (!parsed.ok) return;
      for (const ref of parsed.bands) {
        if (ref.raster >= p.inputs.length) {
          ctx.addIssue({
            code: 'custom',
            path: ['expression'],
            message: `${ref.name} refers to input ${ref.name[0]}, but only ${p.inputs.length} input(s) are given (A${p.inputs.length > 1 ? `–${String.fromCharCode(64 + p.inputs.length)}` : ''})`,
          });
        }
      }
    }),
  layerParams: ['inputs'],
});

/** The raster algorithms of the catalogue. */
export const RASTER_ALGORITHMS: readonly AlgorithmSpec[] = [
  resample,
  warp,
  mosaic,
  clipRaster,
  hillshade,
  slope,
  aspect,
  contours,
  polygonize,
  rasterize,
  zonalStatistics,
  rasterCalculator,
];

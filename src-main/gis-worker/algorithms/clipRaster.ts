import type { BBox } from '../../../src-shared/domain/layer.js';
import { parseSource } from '../../../src-shared/domain/source.js';
import { clipRaster as spec } from '../../../src-shared/processing/rasterAlgorithms.js';
import { transformBBox } from '../crs.js';
import { parseUserCrs } from '../inspect/userCrs.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { extentFromGeoTransform } from '../rasterGeoref.js';
import { defaultNodata, GTIFF_ARGS, gdalProgress, openRasterInput, type RasterInput } from './rasterInput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';
import { openVectorInput } from './vectorInput.js';

/**
 * A bbox clip is gdal_translate -projwin: whole source pixels, no resampling. A mask clip is
 * gdalwarp -cutline (GDAL reprojects the polygons to the raster's CRS itself; with
 * -crop_to_cutline on the same CRS it keeps the source pixel grid).
 */
export const runClipRaster: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.parse(params);
  const input = await openRasterInput(p.input, 'input');
  try {
    return p.bbox ? await clipToBBox(input, p.bbox, p.bbox_crs, output, ctx) : await clipToMask(input, p.mask!, p, output, ctx);
  } finally {
    input.close();
  }
};

async function clipToBBox(input: RasterInput, bbox: BBox, bboxCrs: string | undefined, output: string, ctx: AlgorithmContext) {
  const gt = input.ds.geoTransform;
  if (!gt || gt[2] !== 0 || gt[4] !== 0)
    throw new BadInputError(`${input.path} is not a north-up georeferenced raster; clip it by mask instead`);
  const srs = input.ds.srs;
  let box = bbox;
  if (bboxCrs) {
    if (!srs)
      throw new BadInputError(
        `${input.path} has no CRS, so a bbox in ${bboxCrs} cannot be placed on it; give the bbox in its own coordinates`,
      );
    const from = parseUserCrs(bboxCrs, 'bbox CRS');
    if (!from.isSame(srs)) {
      const t = transformBBox(bbox, from, srs);
      if (!t) throw new BadInputError(`The bbox cannot be transformed from ${bboxCrs} to the raster's CRS`);
      box = t;
    }
  }
  const { x: width, y: height } = input.ds.rasterSize;
  const extent = extentFromGeoTransform(gt, width, height);
  const clipped: BBox = [
    Math.max(box[0], extent[0]),
    Math.max(box[1], extent[1]),
    Math.min(box[2], extent[2]),
    Math.min(box[3], extent[3]),
  ];
  if (clipped[0] >= clipped[2] || clipped[1] >= clipped[3]) {
    throw new BadInputError(
      `The bbox [${box.map((v) => +v.toFixed(6)).join(', ')}] does not overlap the raster, whose extent is [${extent.map((v) => +v.toFixed(6)).join(', ')}]`,
    );
  }
  // Whole pixels that the box touches, on the source grid.
  const col0 = Math.max(0, Math.floor((clipped[0] - gt[0]!) / gt[1]! + 1e-9));
  const col1 = Math.min(width, Math.ceil((clipped[2] - gt[0]!) / gt[1]! - 1e-9));
  const rowA = (clipped[3] - gt[3]!) / gt[5]!;
  const rowB = (clipped[1] - gt[3]!) / gt[5]!;
  const row0 = Math.max(0, Math.floor(Math.min(rowA, rowB) + 1e-9));
  const row1 = Math.min(height, Math.ceil(Math.max(rowA, rowB) - 1e-9));
  const w = Math.max(1, col1 - col0);
  const h = Math.max(1, row1 - row0);
  throwIfCancelled(ctx.signal);
  let out;
  try {
    out = await gdal.translateAsync(
      output,
      input.ds,
      [...GTIFF_ARGS, '-srcwin', String(col0), String(row0), String(w), String(h)],
      gdalProgress(ctx, 'Clipping'),
    );
  } catch (err) {
    throw new BadInputError(`Cannot clip ${input.path}: ${gdalReason(err, input.path)}`);
  }
  out.close();
  ctx.progress(1, `Clipped to ${w} × ${h} pixels`);
  return {
    output,
    featureCount: null,
    notes: [`${w} × ${h} pixels (columns ${col0}–${col0 + w - 1}, rows ${row0}–${row0 + h - 1} of the source)`],
  };
}

async function clipToMask(
  input: RasterInput,
  maskSource: string,
  p: { crop_to_cutline: boolean; all_touched: boolean },
  output: string,
  ctx: AlgorithmContext,
) {
  const mask = await openVectorInput(maskSource, 'mask');
  let maskLayer: string;
  let polygons: number;
  try {
    maskLayer = mask.layer.name;
    const type = gdal.Geometry.getName(mask.layer.geomType).toUpperCase();
    if (!/POLYGON|SURFACE|UNKNOWN|GEOMETRY/.test(type))
      throw new BadInputError(`The mask ${mask.path} holds ${type.toLowerCase()}s; a clip mask needs polygons`);
    polygons = mask.layer.features.count();
    if (polygons === 0) throw new BadInputError(`The mask ${mask.path} has no features`);
  } finally {
    mask.close();
  }
  const band1 = input.ds.bands.get(1);
  const nodata = band1.noDataValue ?? defaultNodata(band1.dataType);
  const args = [
    ...GTIFF_ARGS,
    '-cutline',
    parseSource(maskSource).path,
    '-cl',
    maskLayer,
    '-dstnodata',
    String(nodata),
    ...(p.crop_to_cutline ? ['-crop_to_cutline'] : []),
    ...(p.all_touched ? ['-wo', 'CUTLINE_ALL_TOUCHED=TRUE'] : []),
  ];
  throwIfCancelled(ctx.signal);
  let out;
  try {
    out = await gdal.warpAsync(output, null, [input.ds], args, gdalProgress(ctx, `Clipping to ${polygons} polygon(s)`));
  } catch (err) {
    throw new BadInputError(`Cannot clip ${input.path} to ${maskSource}: ${gdalReason(err, input.path)}`);
  }
  const { x, y } = out.rasterSize;
  out.close();
  ctx.progress(1, `Clipped to ${x} × ${y} pixels`);
  return { output, featureCount: null, notes: [`${x} × ${y} pixels; pixels outside the mask are nodata (${nodata})`] };
}

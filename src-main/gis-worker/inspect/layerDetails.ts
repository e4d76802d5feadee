import type { SpatialReference } from 'gdal-async';
import type { BBox } from '../../../src-shared/domain/layer.js';
import { crsInfo, looksLikeDegrees, transformBBox, wgs84 } from '../crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { geometryTypeName } from '../geometryType.js';
import { layerSrs } from '../layerSrs.js';
import { openSource, type OpenedSource } from '../openSource.js';
import { rasterGeoref } from '../rasterGeoref.js';
import { releaseVsimem, vsimemPath } from '../vsimem.js';
import { parseUserCrs } from './userCrs.js';

/** Up to this many pixels per band, statistics are exact; beyond, GDAL samples. */
const EXACT_STATS_MAX_PIXELS = 16_000_000;

export interface CrsDetails {
  epsg: number | null;
  /** The CRS's own name (WKT root node), e.g. "OSGB36 / British National Grid". */
  name: string | null;
  geographic: boolean;
  /** Units of the coordinates: "metre", "degree", "US survey foot"… */
  units: string | null;
}

export function crsDetails(srs: SpatialReference | null): CrsDetails | null {
  const info = crsInfo(srs);
  if (!srs || !info) return null;
  let units: string | null = null;
  try {
    units = info.geographic ? srs.getAngularUnits().units : srs.getLinearUnits().units;
  } catch {
    units = null;
  }
  return { ...info, units: units ? units.toLowerCase() : null };
}

/** The CRS of an opened source without `layer.srs` (see layerSrs.ts), or null. */
export async function sourceSrs(opened: OpenedSource): Promise<SpatialReference | null> {
  if (opened.kind === 'raster') return (await rasterGeoref(opened.ds)).srs;
  const srs = await layerSrs(opened.ds, opened.layer.name);
  if (srs) return srs;
  // CSV lon/lat columns carry no CRS; they are WGS 84 by convention (as describeSource says).
  if (opened.delimitedText && opened.layer.geomType !== gdal.wkbNone && looksLikeDegrees(nativeVectorExtent(opened))) return wgs84();
  return null;
}

function nativeVectorExtent(opened: OpenedSource): BBox | null {
  if (opened.kind !== 'vector') return null;
  try {
    const e = opened.layer.getExtent(true);
    const box: BBox = [e.minX, e.minY, e.maxX, e.maxY];
    return box.every(Number.isFinite) && e.minX <= e.maxX ? box : null;
  } catch {
    return null;
  }
}

async function nativeExtent(opened: OpenedSource): Promise<BBox | null> {
  if (opened.kind === 'raster') return (await rasterGeoref(opened.ds)).extent;
  return nativeVectorExtent(opened);
}

/**
 * The extent of a source in any CRS, as [xmin, ymin, xmax, ymax]. Edges are densified so a
 * projected box still holds the whole layer.
 */
export async function sourceExtent(
  source: string,
  target: string | null,
): Promise<{ extent: BBox; crs: string; native_crs: CrsDetails | null }> {
  const opened = await openSource(source);
  try {
    const extent = await nativeExtent(opened);
    if (!extent) throw new BadInputError(`${opened.path} has no extent: it is empty, has no geometry or no georeferencing`);
    const srs = await sourceSrs(opened);
    if (!target) return { extent, crs: srs ? (crsLabel(srs) ?? 'native') : 'native (unknown CRS)', native_crs: crsDetails(srs) };
    const to = parseUserCrs(target, 'target CRS');
    if (!srs) throw new BadInputError(`${opened.path} has no coordinate reference system, so its extent cannot be given in ${target}`);
    const out = (opened.kind === 'vector' ? await reprojectedExtent(opened, to) : null) ?? transformBBox(extent, srs, to, 50);
    if (!out) throw new BadInputError(`The extent of ${opened.path} cannot be expressed in ${target} (outside that CRS's area of use)`);
    return { extent: out, crs: target.trim(), native_crs: crsDetails(srs) };
  } finally {
    opened.ds.close();
  }
}

/** Up to this many features the extent is that of the reprojected geometries themselves. */
const EXACT_EXTENT_MAX_FEATURES = 200_000;

/**
 * The box of the geometries after reprojection (GDAL's ogr2ogr into memory): tighter than the
 * reprojected box of the source extent, whose corners may lie far from any feature.
 */
async function reprojectedExtent(opened: OpenedSource, to: SpatialReference): Promise<BBox | null> {
  if (opened.kind !== 'vector') return null;
  const count = await opened.layer.features.countAsync(false);
  if (count < 0 || count > EXACT_EXTENT_MAX_FEATURES) return null;
  const out = vsimemPath('gpkg');
  try {
    const ds = await gdal.vectorTranslateAsync(out, opened.ds, [
      '-f',
      'GPKG',
      '-t_srs',
      to.toWKT(),
      '-nln',
      'extent',
      '-select',
      '',
      opened.layer.name,
    ]);
    try {
      const e = ds.layers.get('extent').getExtent(true);
      const box: BBox = [e.minX, e.minY, e.maxX, e.maxY];
      return box.every(Number.isFinite) ? box : null;
    } finally {
      ds.close();
    }
  } catch {
    // Geometries GDAL cannot reproject (outside the CRS's area): the box transform will say.
    return null;
  } finally {
    releaseVsimem(out);
  }
}

function crsLabel(srs: SpatialReference): string | null {
  const info = crsInfo(srs);
  return info?.epsg ? `EPSG:${info.epsg}` : (info?.name ?? null);
}

export interface BandDetails {
  index: number;
  data_type: string;
  nodata: number | string | null;
  min: number | null;
  max: number | null;
  mean: number | null;
  std_dev: number | null;
  /** True when GDAL sampled (large band); false when every pixel was read. */
  approximate: boolean;
  colour: string | null;
  scale: number | null;
  offset: number | null;
}

/** Everything layer_info tells: CRS with EPSG and units, fields, per-band statistics. */
export async function layerDetails(source: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  const opened = await openSource(source);
  try {
    const srs = await sourceSrs(opened);
    const crs = crsDetails(srs);
    const extent = await nativeExtent(opened);
    const extent4326 = srs && extent ? transformBBox(extent, srs, wgs84()) : null;
    if (opened.kind === 'vector') {
      const { layer } = opened;
      const fields: { name: string; type: string; width: number; precision: number }[] = [];
      layer.fields.forEach((f) => {
        fields.push({ name: f.name, type: f.type, width: f.width, precision: f.precision });
      });
      let featureCount: number;
      try {
        featureCount = await layer.features.countAsync(true);
      } catch (err) {
        throw new BadInputError(`Cannot read the features of ${opened.path}: ${gdalReason(err, opened.path)}`);
      }
      const table = layer.geomType === gdal.wkbNone;
      return {
        kind: table ? 'table' : 'vector',
        driver: opened.ds.driver.description,
        layer_name: layer.name,
        crs,
        extent_native: extent,
        extent_4326: extent4326,
        geometry_type: table ? null : geometryTypeName(layer.geomType),
        geometry_column: table ? null : layer.geomColumn || null,
        fid_column: layer.fidColumn || null,
        feature_count: featureCount,
        fields,
        sublayers_in_file: opened.layerNames,
      };
    }
    const { ds } = opened;
    const georef = await rasterGeoref(ds);
    const count = await ds.bands.countAsync();
    const bands: BandDetails[] = [];
    for (let i = 1; i <= count && i <= 64; i++) {
      throwIfCancelled(signal);
      bands.push(await bandDetails(ds, i, georef.width * georef.height, opened.path));
    }
    const gt = await ds.geoTransformAsync;
    return {
      kind: 'raster',
      driver: ds.driver.description,
      crs,
      extent_native: extent,
      extent_4326: extent4326,
      size_px: [georef.width, georef.height],
      pixel_size: gt ? [Math.abs(gt[1]!), Math.abs(gt[5]!)] : null,
      band_count: count,
      bands,
    };
  } finally {
    opened.ds.close();
  }
}

async function bandDetails(ds: OpenedSource['ds'], index: number, pixels: number, path: string): Promise<BandDetails> {
  const band = await ds.bands.getAsync(index);
  const approximate = pixels > EXACT_STATS_MAX_PIXELS;
  let stats: { min: number; max: number; mean: number; std_dev: number } | null = null;
  try {
    stats = await band.computeStatisticsAsync(approximate);
  } catch (err) {
    const reason = gdalReason(err, path);
    if (!/no valid pixels/i.test(reason)) {
      throw new BadInputError(`Cannot read the pixels of ${path} (band ${index}); the file may be damaged. GDAL says: ${reason}`);
    }
  }
  const nodata = await band.noDataValueAsync;
  const finite = (v: number | undefined | null) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    index,
    data_type: (await band.dataTypeAsync) ?? 'Unknown',
    // NaN nodata is common in float rasters and has no JSON number: say it in words.
    nodata: typeof nodata === 'number' ? (Number.isNaN(nodata) ? 'NaN' : nodata) : null,
    min: finite(stats?.min),
    max: finite(stats?.max),
    mean: finite(stats?.mean),
    std_dev: finite(stats?.std_dev),
    approximate,
    colour: band.colorInterpretation ?? null,
    scale: finite(band.scale),
    offset: finite(band.offset),
  };
}

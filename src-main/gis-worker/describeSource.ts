import type { BandInfo, LayerInfo } from '../../src-shared/domain/layer.js';
import { quoteIdentifier } from '../../src-shared/sql/quote.js';
import { bandRange, finiteOrNull } from './bandStats.js';
import { crsInfo, looksLikeDegrees, transformBBox, wgs84 } from './crs.js';
import { BadInputError, gdalReason, throwIfCancelled } from './errors.js';
import { gdal } from './gdal.js';
import { geometryTypeName, summariseGeometryTypes } from './geometryType.js';
import { layerExtent } from './layerExtent.js';
import { layerSrs } from './layerSrs.js';
import { openSource, type OpenedRaster, type OpenedVector } from './openSource.js';
import { rasterGeoref } from './rasterGeoref.js';

/** Statistics for more bands than this (hyperspectral cubes) would make describing slow. */
const MAX_BANDS_WITH_STATS = 32;

export async function describeSource(source: string, signal?: AbortSignal): Promise<LayerInfo> {
  const opened = await openSource(source);
  try {
    throwIfCancelled(signal);
    return opened.kind === 'vector' ? await describeVector(opened, signal) : await describeRaster(opened, signal);
  } finally {
    opened.ds.close();
  }
}

async function describeVector(opened: OpenedVector, signal?: AbortSignal): Promise<LayerInfo> {
  const { layer, path } = opened;
  let featureCount: number;
  try {
    featureCount = await layer.features.countAsync(true);
  } catch (err) {
    throw new BadInputError(`Cannot read the features of ${path}: ${gdalReason(err, path)}`);
  }
  throwIfCancelled(signal);

  const extent = featureCount > 0 ? layerExtent(layer) : null;
  let srs = await layerSrs(opened.ds, layer.name);
  // CSV has nowhere to store a CRS; lon/lat columns are WGS 84 by convention.
  if (!srs && opened.delimitedText && looksLikeDegrees(extent)) srs = wgs84();
  const crs = crsInfo(srs);
  const extent4326 = srs && extent ? transformBBox(extent, srs, wgs84()) : null;

  let geometryType = geometryTypeName(layer.geomType);
  if (geometryType === 'Unknown' && featureCount > 0) geometryType = await scanGeometryTypes(opened);

  const fields: LayerInfo['fields'] = [];
  layer.fields.forEach((f) => {
    fields.push({ name: f.name, type: f.type });
  });

  return {
    // No geometry column at all (a CSV without coordinates, a spreadsheet, an attribute table).
    kind: layer.geomType === gdal.wkbNone ? 'table' : 'vector',
    driver: opened.ds.driver.description,
    crs,
    extent,
    extent4326,
    geometryType,
    featureCount,
    fields,
    width: null,
    height: null,
    bands: [],
    sublayers: opened.layerNames,
  };
}

/** GeoJSON, KML and FlatGeobuf often declare "Unknown"; the map needs points/lines/polygons. */
async function scanGeometryTypes(opened: OpenedVector): Promise<string> {
  try {
    const result = await opened.ds.executeSQLAsync(
      `SELECT DISTINCT OGR_GEOMETRY FROM ${quoteIdentifier(opened.layer.name)}`,
      undefined,
      'OGRSQL',
    );
    const names: (string | null)[] = [];
    for (let f = await result.features.firstAsync(); f; f = await result.features.nextAsync()) {
      names.push(f.fields.get(0) as string | null);
    }
    return summariseGeometryTypes(names);
  } catch {
    // Not worth failing a describe over: the header's answer stands.
    return 'Unknown';
  }
}

async function describeRaster(opened: OpenedRaster, signal?: AbortSignal): Promise<LayerInfo> {
  const { ds, path } = opened;
  const georef = await rasterGeoref(ds);
  const count = await ds.bands.countAsync();
  const bands: BandInfo[] = [];
  for (let i = 1; i <= count; i++) {
    throwIfCancelled(signal);
    const band = await ds.bands.getAsync(i);
    const range = i <= MAX_BANDS_WITH_STATS ? await bandRange(band, i, path) : { min: null, max: null };
    bands.push({
      index: i,
      dataType: (await band.dataTypeAsync) ?? 'Unknown',
      // NaN nodata (common in float rasters) has no JSON form; the tile renderer reads the
      // real value from the file, so only the summary loses it.
      nodata: finiteOrNull(await band.noDataValueAsync),
      min: range.min,
      max: range.max,
    });
  }
  return {
    kind: 'raster',
    driver: ds.driver.description,
    crs: crsInfo(georef.srs),
    extent: georef.extent,
    extent4326: georef.extent4326,
    geometryType: null,
    featureCount: null,
    fields: [],
    width: georef.width,
    height: georef.height,
    bands,
    sublayers: [],
  };
}

import type { Geometry, Layer, SpatialReference } from 'gdal-async';
import type { GeometryInput } from '../../../src-shared/edit/editOps.js';
import { wgs84 } from '../crs.js';
import { BadInputError } from '../errors.js';
import { gdal } from '../gdal.js';
import { flatGeometryType, geometryTypeName } from '../geometryType.js';

const MULTI_OF: Record<number, number> = {
  [gdal.wkbPoint]: gdal.wkbMultiPoint,
  [gdal.wkbLineString]: gdal.wkbMultiLineString,
  [gdal.wkbPolygon]: gdal.wkbMultiPolygon,
};

/**
 * A geometry from WKT or GeoJSON, in the layer's CRS and of the layer's type: lon/lat input is
 * transformed, a single part is promoted to the layer's Multi type. An invalid text, a wrong
 * kind of shape (a line for a polygon layer) or coordinates outside lon/lat ranges is the
 * caller's error, said plainly.
 */
export function geometryFor(
  layer: Layer,
  input: GeometryInput,
  crs: 'EPSG:4326' | 'layer',
  /** The type the edit will meet, when not the layer's own (a Shapefile's working copy takes the Multi type). */
  geomType: number = layer.geomType,
): Geometry {
  let g: Geometry;
  try {
    g = 'wkt' in input ? gdal.Geometry.fromWKT(input.wkt) : gdal.Geometry.fromGeoJson(input.geojson);
  } catch (err) {
    throw new BadInputError(
      `The geometry could not be read (${'wkt' in input ? 'WKT' : 'GeoJSON'}): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (g.isEmpty()) throw new BadInputError('The geometry is empty.');
  const target: SpatialReference | null = layer.srs;
  if (crs === 'EPSG:4326') {
    const env = g.getEnvelope();
    if (env.minX < -180 || env.maxX > 180 || env.minY < -90 || env.maxY > 90)
      throw new BadInputError(
        'The geometry is not in lon/lat degrees (EPSG:4326); pass crs "layer" for coordinates in the layer\u2019s own CRS.',
      );
    g.srs = wgs84();
    if (target && !target.isSame(wgs84())) g.transformTo(target);
  } else if (target) g.srs = target;
  return ofLayerType(geomType, g);
}

function ofLayerType(geomType: number, g: Geometry): Geometry {
  const want = flatGeometryType(geomType);
  const have = flatGeometryType(g.wkbType);
  if (want === gdal.wkbUnknown || want === have) return g;
  if (MULTI_OF[have] === want) {
    const multi =
      want === gdal.wkbMultiPolygon
        ? new gdal.MultiPolygon()
        : want === gdal.wkbMultiLineString
          ? new gdal.MultiLineString()
          : new gdal.MultiPoint();
    multi.children.add(g);
    if (g.srs) multi.srs = g.srs;
    return multi;
  }
  throw new BadInputError(
    `The layer holds ${geometryTypeName(geomType)} features; a ${geometryTypeName(g.wkbType)} cannot be stored in it.`,
  );
}

import { z } from 'zod';
import { defineAlgorithm, defineTableAlgorithm } from './algorithmSpec.js';
import { fieldList } from './fieldParams.js';
import { layerParam as layer } from './params.js';

/** Algorithms that change or measure the geometries of one vector layer. */

export const dissolve = defineAlgorithm({
  id: 'dissolve',
  title: 'Dissolve',
  description:
    'Merges features into one per distinct value of the `by` fields (or all into one feature when `by` is left out), ' +
    'removing the boundaries between them. Output: a new GeoPackage layer with the `by` fields and a feature_count ' +
    'field; other attributes are dropped (use aggregate for sums and means).',
  params: z.object({
    input: layer,
    by: fieldList.optional().describe('Fields whose values group the features (default: merge everything)'),
  }),
});

export const centroids = defineAlgorithm({
  id: 'centroids',
  title: 'Centroids',
  description:
    'One point per feature: its centroid, or with inside=true a point guaranteed to lie on the feature (useful for ' +
    'crescent-shaped polygons and for labels). Output: a new GeoPackage point layer with the input attributes.',
  params: z.object({
    input: layer,
    inside: z.boolean().default(false).describe('Use a point on the surface instead of the centroid'),
  }),
});

export const simplify = defineAlgorithm({
  id: 'simplify',
  title: 'Simplify',
  description:
    'Removes vertices of lines and polygons that deviate less than `tolerance` (Douglas-Peucker, topology of each ' +
    'feature preserved; shared borders between features may simplify differently). tolerance is in the layer CRS ' +
    'units and is refused on degree layers: reproject first. Output: a new GeoPackage layer with the input attributes.',
  params: z.object({
    input: layer,
    tolerance: z.number().positive().describe('Maximum deviation in the layer CRS units (metres in a projected CRS)'),
  }),
  distanceParams: ['tolerance'],
});

export const convertFormat = defineTableAlgorithm({
  id: 'convert_format',
  title: 'Convert format',
  description:
    'Writes a vector layer in another file format: gpkg (GeoPackage), geojson (always WGS 84 lon/lat, as RFC 7946 ' +
    'requires), shapefile (field names cut to 10 characters), flatgeobuf, or csv (points as X/Y columns, other ' +
    'geometries as WKT; a CSV stores no CRS). Output: the new file in the outputs folder, loaded as a layer.',
  params: z.object({
    input: layer,
    format: z.enum(['gpkg', 'geojson', 'shapefile', 'flatgeobuf', 'csv']).describe('Target format'),
  }),
});

export const areaLength = defineAlgorithm({
  id: 'area_length',
  title: 'Area and length (true units)',
  description:
    'Adds true areas and lengths, whatever the layer CRS: polygons get area_<unit> and perimeter_<unit>, lines ' +
    'get length_<unit>, all geodesic on the WGS 84 ellipsoid (SpatiaLite ST_Area(geom, 1) and GeodesicLength ' +
    'after transforming to EPSG:4326) — never degrees or Web Mercator. Output: a new GeoPackage layer with the ' +
    'input attributes plus these fields.',
  params: z.object({
    input: layer,
    area_unit: z.enum(['m2', 'ha', 'km2']).default('km2').describe('Unit of area_<unit>: square metres, hectares or square kilometres'),
    length_unit: z.enum(['m', 'km']).default('km').describe('Unit of length_<unit> / perimeter_<unit>'),
  }),
});

export const GEOMETRY_ALGORITHMS = [dissolve, centroids, simplify, convertFormat, areaLength];

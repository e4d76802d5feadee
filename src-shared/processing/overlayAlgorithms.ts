import { z } from 'zod';
import { defineOverlayAlgorithm } from './algorithmSpec.js';
import { fieldList, newFieldName } from './fieldParams.js';
import { layerParam as layer } from './params.js';

/**
 * Algorithms that combine two vector layers. The second layer is reprojected to the first
 * one's CRS inside the algorithm when they differ (the result says so in its notes).
 */

const overlay = layer.describe('Project layer id or exact name of the second layer (polygons for clip/difference)');

/** The params of the overlays that take nothing but their two layers. */
const inputAndOverlay = z.object({ input: layer, overlay });

export const clip = defineOverlayAlgorithm({
  id: 'clip',
  title: 'Clip',
  description:
    'Cuts the features of `input` to the area covered by the polygons of `overlay` (their union); features outside ' +
    'are dropped, attributes of `input` are kept. Output: a new GeoPackage layer of the same geometry kind as input, ' +
    'in the input CRS.',
  params: inputAndOverlay,
});

export const intersection = defineOverlayAlgorithm({
  id: 'intersection',
  title: 'Intersection',
  description:
    'The parts where features of `input` and `overlay` overlap: one output feature per overlapping pair, carrying the ' +
    'attributes of both (overlay fields whose names clash get a _2 suffix). Output: a new GeoPackage layer of the lower ' +
    'geometry dimension of the two, in the input CRS.',
  params: z.object({
    input: layer,
    overlay,
    overlay_fields: fieldList.optional().describe('Fields of overlay to keep (default: all)'),
  }),
});

export const difference = defineOverlayAlgorithm({
  id: 'difference',
  title: 'Difference',
  description:
    'What remains of each feature of `input` after cutting away the polygons of `overlay`; features entirely covered ' +
    'are dropped. Attributes of input kept. Output: a new GeoPackage layer in the input CRS.',
  params: inputAndOverlay,
});

export const union = defineOverlayAlgorithm({
  id: 'union',
  title: 'Union',
  description:
    'Overlays two polygon layers: the overlapping parts (attributes of both), the parts of `input` outside overlay ' +
    '(overlay fields empty) and the parts of `overlay` outside input (input fields empty). Overlaps inside one layer ' +
    'are not split. Output: a new GeoPackage polygon layer in the input CRS.',
  params: inputAndOverlay,
});

export const selectByLocation = defineOverlayAlgorithm({
  id: 'select_by_location',
  title: 'Select by location',
  description:
    'Keeps the features of `input` that stand in a spatial relation to at least one feature of `overlay` ' +
    '(intersects, within, contains) or to none of them (disjoint). Output: a new GeoPackage layer with the selected ' +
    'features and all their attributes; the feature count says how many matched.',
  params: z.object({
    input: layer,
    overlay,
    predicate: z
      .enum(['intersects', 'within', 'contains', 'disjoint'])
      .default('intersects')
      .describe('intersects: touches or overlaps some overlay feature; within: inside one; contains: holds one; disjoint: touches none'),
  }),
});

export const spatialJoin = defineOverlayAlgorithm({
  id: 'spatial_join',
  title: 'Spatial join',
  description:
    'Adds to each feature of `input` attributes of the features of `join` that it intersects (or is within / ' +
    'contains). mode "first": the fields of the first matching join feature (lowest id); mode "summary": a match ' +
    'count plus statistics of numeric join fields (<field>_<stat>). Output: a new GeoPackage layer with input ' +
    'geometries and attributes plus the joined fields.',
  params: z.object({
    input: layer,
    join: layer.describe('Project layer id or exact name of the layer whose attributes are joined'),
    predicate: z
      .enum(['intersects', 'within', 'contains'])
      .default('intersects')
      .describe('How an input feature must relate to a join feature'),
    mode: z
      .enum(['first', 'summary'])
      .default('first')
      .describe('first: one-to-one, first match; summary: count and statistics of all matches'),
    fields: fieldList.optional().describe('Join fields to bring over (default: all; numeric ones only in summary mode)'),
    statistics: z
      .array(z.enum(['sum', 'mean', 'min', 'max']))
      .default(['sum', 'mean'])
      .describe('Summary mode: statistics per numeric field (a join_count field is always added)'),
    keep_unmatched: z.boolean().default(true).describe('Keep input features that match nothing (joined fields empty)'),
  }),
  layerParams: ['input', 'join'],
});

export const countPointsInPolygons = defineOverlayAlgorithm({
  id: 'count_points_in_polygons',
  title: 'Count points in polygons',
  description:
    'Counts for each polygon of `input` the points of `points` that fall inside it or on its border (optionally ' +
    'summing a weight field instead). Output: a new GeoPackage layer with the polygons, their attributes and the count field.',
  params: z.object({
    input: layer.describe('Project layer id or exact name of the polygon layer'),
    points: layer.describe('Project layer id or exact name of the point layer'),
    field_name: newFieldName.default('point_count').describe('Name of the new count field'),
    weight_field: z.string().min(1).optional().describe('Numeric field of points to sum instead of counting'),
  }),
  layerParams: ['input', 'points'],
});

export const OVERLAY_ALGORITHMS = [clip, intersection, difference, union, selectByLocation, spatialJoin, countPointsInPolygons];

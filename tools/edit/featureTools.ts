import { z } from 'zod';
import { Scalar } from '../../src-shared/edit/editOps.js';
import { crsArg, fidsArg, geometryArg, geometryInput, layerArg, targetOf, valuesArg, whereArg } from './editParams.js';
import { defineEditTool, DESTRUCTIVE_DELETE_ABOVE } from './editTool.js';

const WORKING_COPY = 'The first edit of a layer copies it into the project (the original file is never changed); undo restores the data.';

export const addFeatures = defineEditTool({
  id: 'edit.add_features',
  title: 'Add features',
  description: `Adds features (geometry + attributes) to a vector layer. ${WORKING_COPY} Returns the new fids and the feature count.`,
  input: z.object({
    layer: layerArg,
    features: z
      .array(
        z.object({
          geometry: geometryArg.nullable().default(null),
          properties: z.record(z.string(), Scalar).default({}).describe('Field name → value'),
        }),
      )
      .min(1)
      .max(1000)
      .describe('The features to add'),
    crs: crsArg,
  }),
  summary: (a) => `Add ${a.features.length} feature${a.features.length === 1 ? '' : 's'} to ${a.layer}`,
  op: (a) => ({
    kind: 'add_features',
    features: a.features.map((f) => ({ geometry: f.geometry === null ? null : geometryInput(f.geometry), properties: f.properties })),
    crs: a.crs,
  }),
});

export const updateFeatures = defineEditTool({
  id: 'edit.update_features',
  title: 'Update features',
  description: `Changes attribute values and/or the geometry of features chosen by fids or where. ${WORKING_COPY} Returns the changed fids.`,
  input: z.object({
    layer: layerArg,
    fids: fidsArg,
    where: whereArg,
    set: valuesArg.optional().describe('Field name → new value (null empties it)'),
    geometry: geometryArg.optional().describe('New geometry (with fids only): WKT or GeoJSON'),
    crs: crsArg,
  }),
  summary: (a) =>
    `Update ${a.fids ? `${a.fids.length} feature(s)` : `features where ${a.where}`} of ${a.layer}: ${[
      ...Object.keys(a.set ?? {}),
      ...(a.geometry ? ['geometry'] : []),
    ].join(', ')}`,
  op: (a) => ({
    kind: 'update_features',
    target: targetOf(a),
    set: a.set ?? {},
    geometry: a.geometry ? geometryInput(a.geometry) : null,
    crs: a.crs,
  }),
});

export const deleteFeatures = defineEditTool({
  id: 'edit.delete_features',
  title: 'Delete features',
  description: `Deletes features chosen by fids or where; more than ${DESTRUCTIVE_DELETE_ABOVE} asks as destructive. ${WORKING_COPY} Returns the deleted fids.`,
  input: z.object({ layer: layerArg, fids: fidsArg, where: whereArg }),
  summary: (a) => `Delete ${a.fids ? `${a.fids.length} feature(s)` : `features where ${a.where}`} from ${a.layer}`,
  op: (a) => ({ kind: 'delete_features', target: targetOf(a) }),
  destructive: (total) => total > DESTRUCTIVE_DELETE_ABOVE,
});

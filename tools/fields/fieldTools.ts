import { z } from 'zod';
import { FieldName, FieldType, Scalar } from '../../src-shared/edit/editOps.js';
import { sqlParam } from '../../src-shared/security/paramCapabilities.js';
import { layerArg, whereArg } from '../edit/editParams.js';
import { defineEditTool } from '../edit/editTool.js';

const fieldArg = z.string().min(1).describe('Existing field name');
/** The rule of `fieldArg`: a field of the call's layer (the nearest names when not). */
const EXISTING_FIELD = ['field_exists:layer'];
const newName = FieldName.describe('New field name');
const typeArg = FieldType.describe('integer, real, text, date, datetime or boolean');

export const addField = defineEditTool({
  id: 'fields.add',
  title: 'Add field',
  description: 'Adds a field to a layer (in its working copy), optionally filled with a default value. Returns the fields.',
  input: z.object({ layer: layerArg, name: newName, type: typeArg, default: Scalar.default(null).describe('Value for existing features') }),
  summary: (a) => `Add ${a.type} field ${a.name} to ${a.layer}`,
  op: (a) => ({ kind: 'add_field', name: a.name, type: a.type, default: a.default }),
});

export const renameField = defineEditTool({
  id: 'fields.rename',
  title: 'Rename field',
  description: 'Renames a field of a layer (in its working copy). Returns the fields.',
  input: z.object({ layer: layerArg, from: fieldArg, to: newName }),
  rules: { from: EXISTING_FIELD },
  summary: (a) => `Rename field ${a.from} → ${a.to} in ${a.layer}`,
  op: (a) => ({ kind: 'rename_field', from: a.from, to: a.to }),
});

export const deleteField = defineEditTool({
  id: 'fields.delete',
  title: 'Delete field',
  description: 'Deletes a field and its values (in the working copy; undo restores them); always asks. Returns the fields.',
  input: z.object({ layer: layerArg, name: fieldArg }),
  rules: { name: EXISTING_FIELD },
  safety: 'destructive',
  summary: (a) => `Delete field ${a.name} from ${a.layer}`,
  op: (a) => ({ kind: 'delete_field', name: a.name }),
});

export const calculateField = defineEditTool({
  id: 'fields.calculate',
  title: 'Calculate field',
  description:
    'Sets an existing field to an SQLite expression over the fields (e.g. "pop / area"), for all features or those matching where. Returns the count changed.',
  input: z.object({
    layer: layerArg,
    name: fieldArg,
    expression: sqlParam(z.string().min(1).max(4_000)).describe('SQLite expression; fields by name, geom for the geometry'),
    where: whereArg,
  }),
  rules: { name: EXISTING_FIELD },
  summary: (a) => `Calculate ${a.name} = ${a.expression}${a.where ? ` where ${a.where}` : ''} in ${a.layer}`,
  op: (a) => ({ kind: 'calculate_field', name: a.name, expression: a.expression, where: a.where ?? null }),
});

export const changeFieldType = defineEditTool({
  id: 'fields.change_type',
  title: 'Change field type',
  description:
    'Converts a field to another type; values that do not convert become empty (the dialog shows them); the field moves last. Returns notes.',
  input: z.object({ layer: layerArg, name: fieldArg, type: typeArg }),
  rules: { name: EXISTING_FIELD },
  summary: (a) => `Change ${a.name} of ${a.layer} to ${a.type}`,
  op: (a) => ({ kind: 'change_type', name: a.name, type: a.type }),
});

export const fieldTools = [addField, renameField, deleteField, calculateField, changeFieldType];

import { z } from 'zod';
import { PgConnectionId } from '../domain/pgConnection.js';
import { postgisSource } from '../domain/pgSource.js';

/**
 * What a tool parameter hands to GDAL, declared on the parameter itself so the dispatcher —
 * not each tool — applies the policy (DESIGN §5):
 * - `source`: a path or connection string GDAL opens (classified by `classifySource`);
 * - `sql`: SQL text or an expression (checked against the SQL allow-list by the tool's
 *   `prepare` and again in the worker).
 * - `database`: a saved PostGIS connection's id (issue 16), judged as the source `postgis://<id>`.
 * A call from the GUI carrying either goes through approval like the model's.
 */
export type ParamCapability = 'source' | 'sql' | 'database';

export const paramCapabilities = z.registry<{ capability: ParamCapability }>();

/** A string parameter naming a file, folder or connection GDAL will open. */
export function sourceParam(description: string) {
  return z.string().min(1).max(4096).describe(description).register(paramCapabilities, { capability: 'source' });
}

/** A parameter naming a saved PostGIS connection by id: never a host or a connection string. */
export function databaseParam(description: string) {
  return PgConnectionId.describe(description).register(paramCapabilities, { capability: 'database' });
}

/** Marks a string schema as SQL or an expression (`where`, `sql`). */
export function sqlParam<S extends z.ZodString>(schema: S): S {
  paramCapabilities.add(schema, { capability: 'sql' });
  return schema;
}

export interface CapabilityValues {
  sources: string[];
  sql: string[];
}

/**
 * The values of marked parameters in validated arguments, found through the tool's input
 * schema (top-level fields, through optional/default/nullable wrappers and arrays).
 */
export function capabilityValues(input: z.ZodType, args: unknown): CapabilityValues {
  const out: CapabilityValues = { sources: [], sql: [] };
  if (!(input instanceof z.ZodObject) || typeof args !== 'object' || args === null) return out;
  for (const [key, field] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    collect(field, (args as Record<string, unknown>)[key], out);
  }
  return out;
}

function collect(schema: z.ZodType, value: unknown, out: CapabilityValues): void {
  if (value === undefined || value === null) return;
  const meta = paramCapabilities.get(schema);
  if (meta && typeof value === 'string') {
    if (meta.capability === 'sql') out.sql.push(value);
    else out.sources.push(meta.capability === 'database' ? postgisSource(value) : value);
    return;
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    collect(schema.unwrap() as z.ZodType, value, out);
  } else if (schema instanceof z.ZodArray && Array.isArray(value)) {
    for (const item of value) collect(schema.element as z.ZodType, item, out);
  }
}

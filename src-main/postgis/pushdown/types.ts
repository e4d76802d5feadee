import type pg from 'pg';

/**
 * The push-down engine's public types (issue 16): a processing algorithm run as SQL inside the
 * PostGIS database that holds all its inputs, with the same ids, params and output fields as
 * the GIS worker's algorithms, so the wiring can hand the same validated params to either.
 */

/** One input table as the engine reads it; `describePgInput` fills it from the catalogue. */
export interface PgInput {
  schema: string;
  table: string;
  geomColumn: string;
  /** The column's SRID (0: unknown, as PostGIS says). */
  srid: number;
  /**
   * The single-column integer primary key (GDAL's FID for the table): chunks are ranges of it,
   * and it is not an attribute of the output. Null: one pass, progress at start and end only.
   */
  keyColumn: string | null;
}

/** A PgInput with what the catalogue also said about it. */
export interface DescribedPgInput extends PgInput {
  /** geometry_columns' type, e.g. MULTIPOLYGON, POINT, GEOMETRY. */
  geometryType: string;
}

/** The open session the engine runs in, and a way to reach the server out of band for Stop. */
export interface PushdownSession {
  /** Connected; the engine runs its one transaction on it and leaves it open and idle. */
  client: pg.Client;
  /** A second connection to the same server as the same user (for pg_cancel_backend); the engine ends it. */
  openControl(): Promise<pg.Client>;
}

/**
 * The output schema that makes the output a temporary table of the engine's session (kept
 * after the commit until dropped or the session ends; nothing persistent on the server).
 */
export const TEMP_SCHEMA = 'pg_temp';

export interface PushdownOutput {
  /** A schema of the database, or TEMP_SCHEMA for a temporary table of the session. */
  schema: string;
  table: string;
  /** Replace an existing table of that name (dropped and created in the same transaction). */
  overwrite: boolean;
}

export interface PushdownRequest {
  /** A catalogue id: see PUSHDOWN_ALGORITHMS. */
  algorithm: string;
  /** The layer params' tables, in the order of the algorithm's layerParams (input, then overlay / join / points). */
  inputs: PgInput[];
  /** The algorithm's params as the catalogue defines them, without its layer params. */
  params: Record<string, unknown>;
  output: PushdownOutput;
}

export interface PushdownOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
}

export interface PushdownResult {
  output: { schema: string; table: string };
  featureCount: number;
  /** What to pass on to the person (renamed fields, skipped features, how measures were made). */
  notes: string[];
}

export type PushdownErrorCode = 'cancelled' | 'invalid_params' | 'output_exists' | 'permission' | 'failed';

/** Every failure of the engine: a code the wiring maps to a tool error, and a message for the person. */
export class PushdownError extends Error {
  constructor(
    readonly code: PushdownErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PushdownError';
  }
}

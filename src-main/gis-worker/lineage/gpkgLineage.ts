import type { Dataset } from 'gdal-async';
import { LINEAGE_MIME, LINEAGE_STANDARD_URI } from '../../../src-shared/domain/lineage.js';
import { quoteLiteral as lit } from '../../../src-shared/sql/quote.js';
import { exec, rows } from '../edit/sqlExec.js';
import { BadInputError } from '../errors.js';

/**
 * Lineage in a GeoPackage's own metadata tables (GeoPackage 1.2 §F.8, the Metadata extension):
 * one `gpkg_metadata` row (scope `dataset`, Mapwright's standard URI, `application/json`)
 * referenced by `gpkg_metadata_reference` with scope `table` and the table's name, so other
 * tools (QGIS, GDAL's GPKG_METADATA_ITEM_n) see it as that table's metadata. Written through
 * GDAL's own connection in one transaction; rows of other standards (GDAL's XML) are left alone.
 */

const METADATA_EXTENSION = 'http://www.geopackage.org/spec120/#extension_metadata';

/** The tables as the GeoPackage specification defines them (what GDAL itself creates). */
const CREATE_TABLES = [
  `CREATE TABLE IF NOT EXISTS gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
    definition TEXT NOT NULL, scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name))`,
  `CREATE TABLE IF NOT EXISTS gpkg_metadata (id INTEGER CONSTRAINT m_pk PRIMARY KEY ASC NOT NULL,
    md_scope TEXT NOT NULL DEFAULT 'dataset', md_standard_uri TEXT NOT NULL, mime_type TEXT NOT NULL DEFAULT 'text/xml',
    metadata TEXT NOT NULL DEFAULT '')`,
  `CREATE TABLE IF NOT EXISTS gpkg_metadata_reference (reference_scope TEXT NOT NULL, table_name TEXT, column_name TEXT,
    row_id_value INTEGER, timestamp DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    md_file_id INTEGER NOT NULL, md_parent_id INTEGER,
    CONSTRAINT crmr_mfi_fk FOREIGN KEY (md_file_id) REFERENCES gpkg_metadata(id),
    CONSTRAINT crmr_mpi_fk FOREIGN KEY (md_parent_id) REFERENCES gpkg_metadata(id))`,
];

/** Replaces the table's Mapwright lineage with `json`. `ds` is open for update. */
export function writeGpkgLineage(ds: Dataset, table: string, json: string): void {
  const known = rows(ds, `SELECT table_name FROM gpkg_contents WHERE lower(table_name) = lower(${lit(table)})`);
  if (!known.length) throw new BadInputError(`No table named '${table}' in this GeoPackage`);
  const name = String(known[0]!.table_name);
  exec(ds, 'BEGIN');
  try {
    for (const sql of CREATE_TABLES) exec(ds, sql);
    for (const extended of ['gpkg_metadata', 'gpkg_metadata_reference']) {
      const has = rows(ds, `SELECT 1 AS x FROM gpkg_extensions WHERE table_name = ${lit(extended)} AND extension_name = 'gpkg_metadata'`);
      if (!has.length)
        exec(
          ds,
          `INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope)
           VALUES (${lit(extended)}, NULL, 'gpkg_metadata', ${lit(METADATA_EXTENSION)}, 'read-write')`,
        );
    }
    const ours = `SELECT id FROM gpkg_metadata WHERE md_standard_uri = ${lit(LINEAGE_STANDARD_URI)}`;
    exec(
      ds,
      `DELETE FROM gpkg_metadata_reference WHERE reference_scope = 'table' AND table_name = ${lit(name)} AND md_file_id IN (${ours})`,
    );
    exec(ds, `DELETE FROM gpkg_metadata WHERE id IN (${ours}) AND id NOT IN (SELECT md_file_id FROM gpkg_metadata_reference)`);
    exec(
      ds,
      `INSERT INTO gpkg_metadata (md_scope, md_standard_uri, mime_type, metadata)
       VALUES ('dataset', ${lit(LINEAGE_STANDARD_URI)}, ${lit(LINEAGE_MIME)}, ${lit(json)})`,
    );
    exec(
      ds,
      `INSERT INTO gpkg_metadata_reference (reference_scope, table_name, md_file_id)
       VALUES ('table', ${lit(name)}, (SELECT max(id) FROM gpkg_metadata WHERE md_standard_uri = ${lit(LINEAGE_STANDARD_URI)}))`,
    );
    exec(ds, 'COMMIT');
  } catch (err) {
    try {
      exec(ds, 'ROLLBACK');
    } catch {
      // The failure that brought us here is the one worth reporting.
    }
    throw err;
  }
}

/** The table's latest Mapwright lineage text, or null when it has none. */
export function readGpkgLineage(ds: Dataset, table: string): string | null {
  const tables = rows(ds, `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('gpkg_metadata', 'gpkg_metadata_reference')`);
  if (tables.length < 2) return null;
  const found = rows(
    ds,
    `SELECT m.metadata AS metadata FROM gpkg_metadata m JOIN gpkg_metadata_reference r ON r.md_file_id = m.id
     WHERE m.md_standard_uri = ${lit(LINEAGE_STANDARD_URI)} AND r.reference_scope = 'table'
       AND lower(r.table_name) = lower(${lit(table)})
     ORDER BY m.id DESC LIMIT 1`,
  );
  const text = found[0]?.metadata;
  return typeof text === 'string' ? text : null;
}

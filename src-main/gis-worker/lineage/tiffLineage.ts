import type { Dataset } from 'gdal-async';
import { LINEAGE_TIFF_ITEM } from '../../../src-shared/domain/lineage.js';

/**
 * Lineage in a GeoTIFF: a dataset metadata item of the default domain, which the GTiff driver
 * stores in the file's own GDAL_METADATA tag when the file is open for update (the worker runs
 * with GDAL_PAM_ENABLED=NO, so it never lands in a `.aux.xml` beside it). The pixels and the
 * other metadata items are kept.
 */
export async function writeTiffLineage(ds: Dataset, json: string): Promise<void> {
  const items = ((await ds.getMetadataAsync()) ?? {}) as Record<string, string>;
  await ds.setMetadataAsync({ ...items, [LINEAGE_TIFF_ITEM]: json });
}

export async function readTiffLineage(ds: Dataset): Promise<string | null> {
  const items = ((await ds.getMetadataAsync()) ?? {}) as Record<string, unknown>;
  const text = items[LINEAGE_TIFF_ITEM];
  return typeof text === 'string' ? text : null;
}

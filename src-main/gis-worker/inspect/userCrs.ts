import type { SpatialReference } from 'gdal-async';
import { BadInputError } from '../errors.js';
import { crsTextProblem } from '../../../src-shared/security/crsText.js';
import { gdal } from '../gdal.js';

/**
 * A CRS named by the model or a person: `EPSG:3857`, a bare `3857`, `OGC:CRS84`, WKT or a
 * PROJ string. An unknown code is the caller's mistake, so it comes back as bad input that
 * says what would work.
 */
export function parseUserCrs(input: string, what = 'CRS'): SpatialReference {
  const text = input.trim();
  // GDAL's user-input parser also reads a file or fetches a URL named in its place: only
  // codes, WKT and PROJ strings are a CRS here.
  const problem = crsTextProblem(text);
  if (problem) throw new BadInputError(`Not accepted as a ${what}: ${problem}. Give an EPSG code such as EPSG:4326.`);
  const normalised = /^\d{4,6}$/.test(text) ? `EPSG:${text}` : text;
  try {
    return gdal.SpatialReference.fromUserInput(normalised);
  } catch {
    throw new BadInputError(
      `Unknown ${what} '${input}': give an EPSG code such as EPSG:4326 (longitude/latitude), EPSG:3857 (Web Mercator) ` +
        'or a UTM zone such as EPSG:32632.',
    );
  }
}

/** `EPSG:n` when the CRS has one (possibly by recognition), else its name. */
export function crsLabel(srs: SpatialReference | null): string | null {
  if (!srs) return null;
  const clone = srs.clone();
  try {
    clone.autoIdentifyEPSG();
  } catch {
    // Not recognisable: fall back to the name below.
  }
  try {
    if (clone.getAuthorityName(null)?.toUpperCase() === 'EPSG') return `EPSG:${clone.getAuthorityCode(null)}`;
  } catch {
    // No authority.
  }
  const m = /^\s*[A-Z_]+\s*\[\s*"([^"]*)"/.exec(srs.toWKT());
  return m?.[1] ?? null;
}

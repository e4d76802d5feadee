/**
 * A CRS as text: an authority code (`EPSG:4326`, `ESRI:54009`, `OGC:CRS84`, `IAU_2015:30100`,
 * a bare number), WKT, PROJJSON or a PROJ string. GDAL's `SetFromUserInput` would also read a
 * file or fetch a URL given in its place, so anything else — a path, a URL, a `urn:`/`http:`
 * reference — is refused before it reaches GDAL. Returns the problem, or null.
 */
export function crsTextProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return 'the CRS is empty';
  if (t.length > 20_000) return 'the CRS text is too long';
  if (/^\d{4,6}$/.test(t) || /^(WGS84|WGS72|NAD27|NAD83|CRS84|CRS83|CRS27)$/i.test(t)) return null;
  if (/^[A-Za-z][A-Za-z0-9_]*:[A-Za-z0-9_.]+$/.test(t) && !/^(https?|ftp|file):/i.test(t)) return null;
  if (
    /^(GEOGCS|PROJCS|GEOCCS|COMPD_CS|VERT_CS|LOCAL_CS|GEOGCRS|PROJCRS|GEODCRS|GEOCRS|BOUNDCRS|COMPOUNDCRS|VERTCRS|ENGCRS|DERIVEDPROJCRS|BASEGEOGCRS)\s*\[/i.test(
      t,
    )
  ) {
    return /\/vsi|:\/\//i.test(t) ? 'the WKT names a file or a URL' : null;
  }
  if (/^\+?proj=/.test(t) || /^\+init=/.test(t)) return /init=|\/|:\/\//.test(t) ? 'PROJ strings may not name files (+init=, paths)' : null;
  if (t.startsWith('{')) return /\/vsi|:\/\//i.test(t) ? 'the PROJJSON names a file or a URL' : null;
  return `'${t.slice(0, 80)}' is not an authority code, WKT or PROJ string (files and URLs are not read)`;
}

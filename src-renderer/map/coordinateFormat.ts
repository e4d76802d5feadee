import type { ProjectCrs } from './projectCrs.js';

/**
 * The status bar's coordinate text. Degrees get 6 decimals (about 0.1 m) and a hemisphere
 * letter instead of a sign — `35.700000° N, 79.250000° W`, latitude first as people say it;
 * projected coordinates get 2 decimals (centimetres in metre or foot CRSs) as `x, y` in the
 * CRS's own axis order of easting, northing: `EPSG:32617 663265.12, 3952312.45`.
 */

const fixed = (v: number, digits: number) => v.toFixed(digits);

export function formatLonLat(lon: number, lat: number): string {
  const ns = `${fixed(Math.abs(lat), 6)}° ${lat < 0 ? 'S' : 'N'}`;
  const ew = `${fixed(Math.abs(lon), 6)}° ${lon < 0 ? 'W' : 'E'}`;
  return `${ns}, ${ew}`;
}

export function formatProjected(crs: ProjectCrs, x: number, y: number): string {
  const digits = crs.geographic ? 6 : 2;
  return `EPSG:${crs.epsg} ${fixed(x, digits)}, ${fixed(y, digits)}`;
}

/**
 * Helpers for the raster algorithm tests: GDAL's command-line tools (gdalinfo, gdallocationinfo)
 * as the referee that reads what the algorithms wrote (algorithmTestKit.ts runs them).
 */
import { execFileSync } from 'node:child_process';
import { gdalCli } from '../testSupport.js';

/** gdallocationinfo at a pixel (column, row), band 1 unless given. */
export function pixel(file: string, col: number, row: number, band = 1): number {
  const out = gdalCli('gdallocationinfo', ['-valonly', '-b', String(band), file, String(col), String(row)]).trim();
  return Number(out);
}

/** gdallocationinfo at many pixels in one run (the points go to its standard input). */
export function pixels(file: string, points: readonly (readonly [number, number])[], band = 1): number[] {
  const out = execFileSync('gdallocationinfo', ['-valonly', '-b', String(band), file], {
    encoding: 'utf8',
    input: points.map(([c, r]) => `${c} ${r}`).join('\n') + '\n',
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return out.trim().split('\n').map(Number);
}

/** gdallocationinfo at a point given in the raster's own CRS (-geoloc) or in lon/lat (-wgs84). */
export function pixelAt(file: string, x: number, y: number, mode: '-geoloc' | '-wgs84' = '-geoloc'): number {
  const out = gdalCli('gdallocationinfo', ['-valonly', mode, file, String(x), String(y)]).trim();
  return out === '' ? NaN : Number(out);
}

export interface GdalInfoBand {
  block: [number, number];
  type: string;
  noDataValue?: number;
  checksum?: number;
  minimum?: number;
  maximum?: number;
  mean?: number;
  metadata?: Record<string, Record<string, string>>;
}

export interface GdalInfo {
  size: [number, number];
  geoTransform: number[];
  coordinateSystem?: { wkt: string };
  metadata?: Record<string, Record<string, string>>;
  bands: GdalInfoBand[];
}

/** gdalinfo -json, with -stats (exact) and -checksum when asked. */
export function gdalInfo(file: string, opts: { stats?: boolean; checksum?: boolean } = {}): GdalInfo {
  const args = ['-json', ...(opts.stats ? ['-stats'] : []), ...(opts.checksum ? ['-checksum'] : []), file];
  return JSON.parse(gdalCli('gdalinfo', args)) as GdalInfo;
}

/** gdalinfo -stats of band 1, from its STATISTICS_* metadata (valid pixels only). */
export function bandStats(file: string): { min: number; max: number; mean: number; validPercent: number } {
  const md = gdalInfo(file, { stats: true }).bands[0]!.metadata?.[''] ?? {};
  return {
    min: Number(md.STATISTICS_MINIMUM),
    max: Number(md.STATISTICS_MAXIMUM),
    mean: Number(md.STATISTICS_MEAN),
    validPercent: Number(md.STATISTICS_VALID_PERCENT),
  };
}

/** The output is what every raster algorithm promises: a tiled, DEFLATE-compressed GeoTIFF. */
export function isTiledCompressedGeoTiff(file: string): boolean {
  const info = gdalInfo(file);
  const structure = info.metadata?.IMAGE_STRUCTURE ?? {};
  return structure.COMPRESSION === 'DEFLATE' && info.bands[0]!.block[0] === 256 && info.bands[0]!.block[1] === 256;
}

import type { BBox } from '../../src-shared/domain/layer.js';

/**
 * The WGS 84 / UTM zone covering the centre of an extent in degrees: a projected CRS in metres
 * that fits most layers well enough for buffers and distances. Polar regions get the polar
 * stereographic CRSs, where UTM is undefined.
 */
export function utmEpsgFor(bbox: BBox): number {
  const lon = (bbox[0] + bbox[2]) / 2;
  const lat = (bbox[1] + bbox[3]) / 2;
  if (lat > 84) return 3413; // NSIDC Sea Ice Polar Stereographic North
  if (lat < -80) return 3031; // Antarctic Polar Stereographic
  const zone = Math.min(60, Math.max(1, Math.floor(((((lon + 180) % 360) + 360) % 360) / 6) + 1));
  return (lat >= 0 ? 32600 : 32700) + zone;
}

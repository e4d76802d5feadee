import type { Layer } from 'gdal-async';
import type { BBox } from '../../src-shared/domain/layer.js';

/**
 * A vector layer's extent in its own CRS, or null when GDAL has none or a nonsense one (empty
 * layers report infinities). `force: false` takes what the format keeps (GeoPackage's
 * gpkg_contents) without reading features; true reads them when it must.
 */
export function layerExtent(layer: Layer, force = true): BBox | null {
  try {
    const e = layer.getExtent(force);
    const box: BBox = [e.minX, e.minY, e.maxX, e.maxY];
    return box.every(Number.isFinite) && e.minX <= e.maxX && e.minY <= e.maxY ? box : null;
  } catch {
    return null;
  }
}

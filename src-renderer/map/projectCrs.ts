import type { Layer } from '../../src-shared/domain/layer.js';

/** The CRS the status bar shows coordinates in, by EPSG code. */
export interface ProjectCrs {
  epsg: number;
  /** Degrees (6 decimals) rather than metres or feet (2 decimals). */
  geographic: boolean;
}

export const WGS84_CRS: ProjectCrs = { epsg: 4326, geographic: true };

/**
 * The project's CRS (issue #15): there is no setting for it yet, so it is the CRS of the
 * bottom-most layer that has one with an EPSG code — the base layer a person usually loads
 * first and measures against — else WGS 84. A CRS without an EPSG code cannot be looked up
 * by code, so such a layer is passed over.
 */
export function projectCrs(layers: readonly Layer[]): ProjectCrs {
  const base = [...layers].sort((a, b) => a.order - b.order).find((l) => l.info.crs?.epsg != null);
  const crs = base?.info.crs;
  return crs?.epsg != null ? { epsg: crs.epsg, geographic: crs.geographic } : WGS84_CRS;
}

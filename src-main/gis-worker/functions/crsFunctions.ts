import { BadInputError, gdalReason } from '../errors.js';
import { gdal } from '../gdal.js';
import type { WorkerFamily } from './types.js';

/** The crs family (src-shared/worker/crsCalls.ts). */
export const CRS_FUNCTIONS: WorkerFamily<'crs'> = {
  'crs.definition': async ({ epsg }) => {
    let proj4: string;
    try {
      proj4 = gdal.SpatialReference.fromEPSG(epsg).toProj4().trim();
    } catch (err) {
      throw new BadInputError(`EPSG:${epsg} is not a CRS GDAL knows: ${gdalReason(err)}`);
    }
    // A CRS PROJ cannot write as a PROJ string (some compound or engineering ones) comes back empty.
    if (!proj4) throw new BadInputError(`EPSG:${epsg} has no PROJ string definition`);
    return { proj4 };
  },
};

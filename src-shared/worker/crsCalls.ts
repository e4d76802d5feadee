import { z } from 'zod';
import { workerCall } from './callSpec.js';

/** An EPSG code: what the renderer may ask about (never a free-form CRS string). */
export const EpsgCode = z.number().int().min(1).max(999_999);

/** Coordinate reference systems: what only GDAL (PROJ's database) knows. */
export const CRS_CALLS = {
  /**
   * An EPSG code's definition as a PROJ string, for proj4js in the renderer (the status bar's
   * coordinate readout): the renderer has no CRS database of its own.
   */
  'crs.definition': workerCall({
    params: z.object({ epsg: EpsgCode }),
    result: z.object({ proj4: z.string().min(1) }),
    doing: (p) => `looking up EPSG:${p.epsg}`,
  }),
};

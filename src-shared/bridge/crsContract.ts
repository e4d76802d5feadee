import { z } from 'zod';
import { EpsgCode } from '../worker/crsCalls.js';

/**
 * Coordinate reference systems for the renderer (issue #15): the status bar shows the cursor
 * in the project CRS with proj4js, which needs each CRS's definition; main asks GDAL for it.
 * Only an EPSG code goes in, so the renderer cannot make GDAL open anything.
 */
export const crsMethods = {
  'crs/definition': {
    params: z.object({ epsg: EpsgCode }).strict(),
    result: z.object({ proj4: z.string() }),
  },
};

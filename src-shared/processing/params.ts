import { z } from 'zod';

/** A parameter naming a project layer. */
export const layerParam = z.string().min(1).describe('Project layer id or exact name');

/** A CRS given by its EPSG code, the form GDAL, the dialog and the model all read the same way. */
export const epsgParam = z.string().regex(/^EPSG:\d{4,6}$/, "a CRS as 'EPSG:<code>'");

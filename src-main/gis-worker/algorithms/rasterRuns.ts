import { runClipRaster } from './clipRaster.js';
import { runContours } from './contours.js';
import { runMosaic } from './mosaic.js';
import { runPolygonize } from './polygonize.js';
import { runRasterCalculator } from './rasterCalculator.js';
import { runRasterize } from './rasterize.js';
import { runResample } from './resample.js';
import { runAspect, runHillshade, runSlope } from './terrain.js';
import type { AlgorithmRun } from './types.js';
import { runWarp } from './warp.js';
import { runZonalStatistics } from './zonalStatistics.js';

/** Worker halves of the raster algorithms, by catalogue id. */
export const RASTER_RUNS: Record<string, AlgorithmRun> = {
  resample: runResample,
  warp: runWarp,
  mosaic: runMosaic,
  clip_raster: runClipRaster,
  hillshade: runHillshade,
  slope: runSlope,
  aspect: runAspect,
  contours: runContours,
  polygonize: runPolygonize,
  rasterize: runRasterize,
  zonal_statistics: runZonalStatistics,
  raster_calculator: runRasterCalculator,
};

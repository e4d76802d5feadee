import { aspect, hillshade, slope } from '../../../src-shared/processing/rasterAlgorithms.js';
import { BadInputError, CancelledError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import { demByLatitudeStrips } from './demStrips.js';
import { GTIFF_ARGS, gdalProgress, openRasterInput, rasterBand } from './rasterInput.js';
import type { AlgorithmContext, AlgorithmRun } from './types.js';

type Mode = 'hillshade' | 'slope' | 'aspect';

interface DemRequest {
  input: string;
  band: number;
  mode: Mode;
  /** gdaldem switches of the mode (no -s, -b, -of, -co). */
  args: string[];
  /** Divides the horizontal scale: slope has no -z, and a z factor is the same as a smaller scale. */
  zForScale: number;
  label: string;
}

/**
 * Hillshade, slope and aspect through GDAL's own gdaldem (gdal.demAsync). Projected DEMs (and DEMs
 * without a CRS) go through in one call, with `-s` set from the CRS's linear unit so a DEM in a
 * feet-based CRS still gets metre elevations right; geographic DEMs go per latitude (demStrips.ts).
 */
async function runDem(req: DemRequest, output: string, ctx: AlgorithmContext) {
  const input = await openRasterInput(req.input, 'input');
  try {
    rasterBand(input, req.band);
    throwIfCancelled(ctx.signal);
    const srs = input.ds.srs;
    const gt = input.ds.geoTransform;
    if (!gt) throw new BadInputError(`${input.path} has no georeferencing, so its pixel size (and thus its ${req.mode}) is unknown`);
    const notes: string[] = [];
    try {
      if (srs?.isGeographic()) {
        const { width, height, strips } = await demByLatitudeStrips(
          { src: input.ds, band: req.band, mode: req.mode, args: req.args, scale: 1 / req.zForScale, output, label: req.label },
          ctx,
        );
        notes.push(
          `${width} × ${height} pixels; geographic DEM: pixel sizes converted to metres per latitude in ${strips} strip(s) (elevations taken as metres)`,
        );
      } else {
        const unit = srs ? srs.getLinearUnits().value : 1;
        if (!srs) notes.push('The DEM has no CRS: its horizontal units were taken to be those of its elevations');
        const args = [...req.args, '-b', String(req.band), '-s', String(unit / req.zForScale), ...GTIFF_ARGS];
        const out = await gdal.demAsync(output, input.ds, req.mode, args, undefined, gdalProgress(ctx, req.label));
        const { x, y } = out.rasterSize;
        out.close();
        notes.unshift(`${x} × ${y} pixels`);
      }
    } catch (err) {
      if (err instanceof BadInputError || err instanceof CancelledError) throw err;
      throw new BadInputError(`Cannot compute the ${req.mode} of ${input.path}: ${gdalReason(err, input.path)}`);
    }
    ctx.progress(1, `${req.label} done`);
    return { output, featureCount: null, notes };
  } finally {
    input.close();
  }
}

const common = (p: { algorithm: string; compute_edges: boolean }): string[] => [
  '-alg',
  p.algorithm,
  ...(p.compute_edges ? ['-compute_edges'] : []),
];

export const runHillshade: AlgorithmRun = async (params, output, ctx) => {
  const p = hillshade.params.parse(params);
  const args = [...common(p), '-z', String(p.z_factor), '-alt', String(p.altitude)];
  if (p.mode === 'multidirectional') args.push('-multidirectional');
  else args.push('-az', String(p.azimuth));
  if (p.mode === 'combined') args.push('-combined');
  return runDem({ input: p.input, band: p.band, mode: 'hillshade', args, zForScale: 1, label: 'Hillshade' }, output, ctx);
};

export const runSlope: AlgorithmRun = async (params, output, ctx) => {
  const p = slope.params.parse(params);
  const args = [...common(p), ...(p.units === 'percent' ? ['-p'] : [])];
  return runDem({ input: p.input, band: p.band, mode: 'slope', args, zForScale: p.z_factor, label: 'Slope' }, output, ctx);
};

export const runAspect: AlgorithmRun = async (params, output, ctx) => {
  const p = aspect.params.parse(params);
  const args = [...common(p), ...(p.zero_for_flat ? ['-zero_for_flat'] : [])];
  return runDem({ input: p.input, band: p.band, mode: 'aspect', args, zForScale: 1, label: 'Aspect' }, output, ctx);
};

import type { BBox, CrsInfo, LayerKind } from '../../src-shared/domain/layer.js';
import { QA_MENTION, type QaReport, type QaWarning } from '../../src-shared/domain/qaReport.js';
import type { LayerCheck } from '../../src-shared/worker/qaCalls.js';
import { compareExtents } from './extentSanity.js';
import type { PlanarMeasure } from './planarMeasures.js';

/** A layer the call read, as the project knows it. */
export interface QaInput {
  name: string;
  crs: CrsInfo | null;
  extent4326: BBox | null;
}

/** Everything the report is made of, gathered by buildQaReport.ts; this file only judges. */
export interface QaFacts {
  layer: string;
  kind: LayerKind;
  /** The layer's own count (vector, table); null when the driver does not know it. */
  featureCount: number | null;
  width: number | null;
  height: number | null;
  crs: CrsInfo | null;
  extent4326: BBox | null;
  /** What the GIS worker read (invalid geometries, nodata counts); null for a table. */
  check: LayerCheck | null;
  inputs: readonly QaInput[];
  /** The call's distance params with a non-zero value (`buffer.distance`…). */
  distances: readonly { param: string; value: number }[];
  /** Planar area/length functions in the call's expressions or SQL. */
  measures: readonly PlanarMeasure[];
}

/** The report: facts that matter, and a warning for each thing worth telling the person. */
export function qaReportOf(f: QaFacts): QaReport {
  const warnings: QaWarning[] = [];
  const report: QaReport = { layer: f.layer, kind: f.kind, crs: crsLabel(f.crs), warnings };
  const vector = f.check?.kind === 'vector' ? f.check : null;
  const raster = f.check?.kind === 'raster' ? f.check : null;

  if (f.kind !== 'raster') {
    const features = f.featureCount ?? (vector && !vector.capped ? vector.read : null);
    report.features = features;
    if (features === 0) warnings.push({ code: 'empty_output', message: 'The output has no features.' });
  }
  if (vector && vector.invalid.count > 0) {
    report.invalidGeometries = vector.invalid;
    const of = vector.capped ? ` of the first ${vector.read.toLocaleString('en-US')} checked` : '';
    warnings.push({
      code: 'invalid_geometries',
      message:
        `${vector.invalid.count.toLocaleString('en-US')} feature(s)${of} have invalid geometries (fid ${vector.invalid.firstIds.join(', ')}` +
        `${vector.invalid.count > vector.invalid.firstIds.length ? ', …' : ''}); overlays, dissolves and areas on them may be wrong or fail.`,
    });
  }
  if (vector?.capped)
    warnings.push({
      code: 'check_capped',
      message: `Geometries were checked on the first ${vector.read.toLocaleString('en-US')} features only (large layer).`,
    });

  if (f.kind === 'raster' && f.width !== null && f.height !== null) report.pixels = f.width * f.height;
  if (raster) judgeRaster(raster, report, warnings);

  judgeUnits(f, warnings);
  if (f.extent4326) report.extent = f.extent4326.map(round4) as BBox;
  judgeExtent(f, warnings);
  if (warnings.length) report.instruction = QA_MENTION;
  return report;
}

function judgeRaster(raster: Extract<LayerCheck, { kind: 'raster' }>, report: QaReport, warnings: QaWarning[]): void {
  const withNodata = raster.bands.filter((b) => b.nodata > 0 && b.counted > 0);
  if (withNodata.length)
    report.nodataShare = withNodata.map((b) => ({ band: b.band, share: round4(b.nodata / b.counted), count: b.nodata }));
  const total = raster.width * raster.height;
  const allNodata = raster.bands.length > 0 && raster.bands.every((b) => b.counted === total && b.nodata === total);
  if (allNodata || total === 0) warnings.push({ code: 'empty_output', message: 'Every pixel of the output is nodata.' });
  if (raster.capped)
    warnings.push({ code: 'check_capped', message: 'Nodata was counted on the first rows only (large raster): the shares are estimates.' });
}

function judgeUnits(f: QaFacts, warnings: QaWarning[]): void {
  if (f.kind !== 'table' && f.crs === null)
    warnings.push({ code: 'no_crs', message: 'The output has no CRS: it cannot be placed on the map reliably or measured.' });
  const degrees = [...f.inputs.filter((i) => i.crs?.geographic).map((i) => i.name), ...(f.crs?.geographic ? [f.layer] : [])];
  if (degrees.length === 0) return;
  const where = `'${[...new Set(degrees)].join("', '")}' ${degrees.length > 1 ? 'are' : 'is'} in degrees`;
  for (const d of f.distances)
    warnings.push({
      code: 'distance_in_degrees',
      message: `${d.param} = ${d.value} was applied in degrees (${where}), not metres.`,
    });
  const measures = [...new Set(f.measures.map((m) => m.name))];
  if (measures.length)
    warnings.push({
      code: 'area_in_degrees',
      message: `${measures.join(', ')} measured in degrees (${where}): the values are square degrees or degrees; area_length gives true units.`,
    });
}

function judgeExtent(f: QaFacts, warnings: QaWarning[]): void {
  const inputs = f.inputs.flatMap((i) => (i.extent4326 ? [i.extent4326] : []));
  if (!f.extent4326 || inputs.length === 0) return;
  const verdict = compareExtents(f.extent4326, inputs);
  if (verdict.kind === 'outside')
    warnings.push({ code: 'extent_outside_inputs', message: 'The output lies outside the extent of every input: check the CRS.' });
  else if (verdict.kind === 'much_larger')
    warnings.push({
      code: 'extent_much_larger',
      message: `The output covers about ${verdict.times}× the area of its inputs: check the CRS and distance units.`,
    });
}

function crsLabel(crs: CrsInfo | null): string | null {
  if (!crs) return null;
  return crs.epsg ? `EPSG:${crs.epsg}` : (crs.name ?? 'unnamed CRS');
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

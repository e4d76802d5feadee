import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { z } from 'zod';
import { buffer as spec } from '../../../src-shared/processing/vectorAlgorithms.js';
import { BadInputError, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';
import type { AlgorithmRun } from './types.js';
import { openVectorInput, outputLayerName } from './vectorInput.js';

/**
 * GEOS buffer feature by feature, so progress is real and Stop is honoured between features
 * (the loop yields to the event loop, where the cancel message arrives).
 */
export const runBuffer: AlgorithmRun = async (params, output, ctx) => {
  const p = spec.params.extend({ input: z.string() }).parse(params);
  const input = await openVectorInput(p.input, 'input');
  const { path, layerName } = outputLayerName(output);
  let out: gdal.Dataset | null = null;
  try {
    if (input.srs?.isGeographic()) {
      throw new BadInputError(`${input.path} is in degrees (a geographic CRS); a buffer needs a projected CRS in metres`);
    }
    out = await gdal.drivers.get('GPKG').createAsync(path, 0, 0, 0, gdal.GDT_Unknown);
    const outLayer = out.layers.create(layerName, input.srs ?? null, p.dissolve ? gdal.wkbMultiPolygon : gdal.wkbMultiPolygon);
    if (!p.dissolve) for (const field of input.layer.fields) outLayer.fields.add(field);

    const total = input.layer.features.count() || 1;
    let done = 0;
    let skipped = 0;
    let union: gdal.Geometry | null = null;
    for (let feature = input.layer.features.first(); feature; feature = input.layer.features.next()) {
      const geom = feature.getGeometry();
      if (!geom || geom.isEmpty()) {
        skipped++;
      } else {
        const grown = toMulti(await geom.bufferAsync(p.distance, p.segments));
        if (p.dissolve) union = union ? union.union(grown) : grown;
        else {
          const f = new gdal.Feature(outLayer);
          f.fields.set(feature.fields.toObject());
          f.setGeometry(grown);
          outLayer.features.add(f);
        }
      }
      done++;
      if (done % 25 === 0) {
        ctx.progress(done / total, `Buffered ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} features`);
        await yieldToEvents();
        throwIfCancelled(ctx.signal);
      }
    }
    if (p.dissolve && union) {
      const f = new gdal.Feature(outLayer);
      f.setGeometry(toMulti(union));
      outLayer.features.add(f);
    }
    const featureCount = outLayer.features.count();
    ctx.progress(1, 'Buffer done');
    return { output, featureCount, notes: skipped ? [`${skipped} feature(s) without geometry were skipped`] : [] };
  } finally {
    out?.close();
    input.close();
  }
};

function toMulti(geom: gdal.Geometry): gdal.Geometry {
  if (geom instanceof gdal.MultiPolygon) return geom;
  if (geom instanceof gdal.Polygon) {
    const multi = new gdal.MultiPolygon();
    multi.children.add(geom);
    return multi;
  }
  return geom;
}

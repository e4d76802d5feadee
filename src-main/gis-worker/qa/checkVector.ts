import type { Layer } from 'gdal-async';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { LayerCheck } from '../../../src-shared/worker/qaCalls.js';
import { BadInputError, CancelledError, gdalReason, throwIfCancelled } from '../errors.js';
import { gdal } from '../gdal.js';

/** Features between two looks at the clock and the Stop signal (and a turn of the event loop, so a cancel arrives). */
const BATCH = 500;
const FIRST_IDS = 5;

export interface CheckLimits {
  maxFeatures: number;
  maxMs: number;
  signal: AbortSignal;
}

/**
 * Reads every feature once and asks GEOS whether its geometry is valid (a self-crossing
 * "bow-tie" ring, a ring with too few points…). Empty and missing geometries are not counted
 * as invalid: the feature count says what is there. Stops at the limits and says so.
 */
export async function checkVector(layer: Layer, path: string, limits: CheckLimits): Promise<Extract<LayerCheck, { kind: 'vector' }>> {
  const hasGeometry = layer.geomType !== gdal.wkbNone;
  const started = Date.now();
  let read = 0;
  let count = 0;
  const firstIds: number[] = [];
  let capped = false;
  try {
    for (let f = layer.features.first(); f; f = layer.features.next()) {
      read++;
      const geom = hasGeometry ? f.getGeometry() : null;
      if (geom && !geom.isEmpty() && !geom.isValid()) {
        count++;
        if (firstIds.length < FIRST_IDS) firstIds.push(f.fid);
      }
      const full = read >= limits.maxFeatures;
      if (full || read % BATCH === 0) {
        throwIfCancelled(limits.signal);
        if (full || Date.now() - started >= limits.maxMs) {
          capped = layer.features.next() !== null;
          break;
        }
        await yieldToEvents();
      }
    }
  } catch (err) {
    if (err instanceof CancelledError) throw err;
    throw new BadInputError(`Cannot read the features of ${path}: ${gdalReason(err, path)}`);
  }
  return { kind: 'vector', read, hasGeometry, invalid: { count, firstIds }, capped };
}

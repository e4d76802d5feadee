import type { Layer } from '../../src-shared/domain/layer.js';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import type { EgressGate } from '../net/egressGate.js';

/**
 * Reads of a layer the person already has — its tiles, features, rows. A layer from the
 * network was added by an approved network call (network loads always ask): showing it is what
 * the person approved, so its own origin is open while `read` runs — and no other origin.
 */
export function layerReader(egress: Pick<EgressGate, 'openFor'>) {
  return async function whileReading<T>(layer: Pick<Layer, 'source'>, read: () => Promise<T>): Promise<T> {
    const c = classifySource(layer.source);
    const close = c.kind === 'network' && c.origin ? egress.openFor([c.origin]) : null;
    try {
      return await read();
    } finally {
      close?.();
    }
  };
}

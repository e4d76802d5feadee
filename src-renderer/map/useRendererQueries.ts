import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect } from 'react';
import type { EventPayload } from '../../src-shared/bridge/contract.js';
import { reportSelection } from '../../src-shared/domain/mapSelection.js';
import { useBridge } from '../bridge/BridgeContext.js';
import type { RendererBridge } from '../bridge/bridgeTypes.js';
import { selectionStore } from '../store/selectionStore.js';
import { composePrint } from '../print/composePrint.js';
import { appStore } from '../store/appStore.js';
import { captureScreenshot, describeView, fitAndSettle } from './rendererQueries.js';
import { playFit } from './useFitRequests.js';

/**
 * Main gives the renderer 5 s to answer (4 s for a fit); a map still loading tiles after 3 s
 * is shot, or reported as fitted, as it is.
 */
const IDLE_CAP_MS = 3000;
/** The web host's WebSocket takes messages up to 1 MiB; leave room for the envelope. */
const WS_MAX_DATA_URL = 1_000_000;

type Query = EventPayload<'renderer/query-requested'>;

async function valueOf(bridge: RendererBridge, map: MapLibreMap | null, { kind, print, bbox }: Query): Promise<unknown> {
  // The selection lives in its own store: it can be answered before the map has loaded.
  if (kind === 'selection') {
    const { layerId, fids } = selectionStore.getState();
    return reportSelection(layerId, fids);
  }
  if (kind === 'fit_bounds' && bbox && !map) {
    // Kept in the store, the fit is played once the map exists (useFitRequests).
    appStore.getState().requestFit(bbox);
    throw new Error('The map is not ready yet; it will show this extent once it is');
  }
  if (!map) throw new Error('The map is not ready yet');
  if (kind === 'current_view') return describeView(map);
  if (kind === 'fit_bounds') {
    if (!bbox) throw new Error('No extent was asked for');
    await fitAndSettle(map, () => playFit(map, bbox, true), IDLE_CAP_MS);
    return describeView(map);
  }
  const maxChars = bridge.transport === 'websocket' ? WS_MAX_DATA_URL : Number.POSITIVE_INFINITY;
  if (kind === 'print_layout') {
    if (!print) throw new Error('No page was asked for');
    return composePrint(map, print, { idleCapMs: IDLE_CAP_MS, maxChars });
  }
  return captureScreenshot(map, { idleCapMs: IDLE_CAP_MS, maxChars });
}

async function answer(bridge: RendererBridge, map: MapLibreMap | null, query: Query): Promise<void> {
  const { queryId } = query;
  let reply: { ok: true; value: unknown } | { ok: false; error: string };
  try {
    reply = { ok: true, value: await valueOf(bridge, map, query) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  try {
    // accepted:false means main stopped waiting (time-out, Stop, another window answered first).
    await bridge.call('renderer/answer', { queryId, ...reply });
  } catch (error) {
    console.warn('[map] could not answer a query', error);
  }
}

/**
 * Answers main's questions about the map (`exec: renderer` tools: current view, screenshot,
 * selection, a print page) and fits it to an extent for `layers.zoom_to`, answering once settled.
 * Used by MapView, the map's owner; before the map exists it answers with a readable error
 * rather than letting main time out.
 */
export function useRendererQueries(map: MapLibreMap | null): void {
  const bridge = useBridge();
  useEffect(() => bridge.on('renderer/query-requested', (query) => void answer(bridge, map, query)), [bridge, map]);
}

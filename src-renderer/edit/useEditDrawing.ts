import type { Geometry } from 'geojson';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TerraDraw } from 'terra-draw';
import type { Layer } from '../../src-shared/domain/layer.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { editSessionStore, useEditSession, type EditTool } from '../store/editSessionStore.js';
import { identifyStore } from '../store/identifyStore.js';
import { selectionStore } from '../store/selectionStore.js';
import { toReshapeGeometry, type DrawTool } from './editGeometry.js';
import { createTerraDraw, raiseEditLayers } from './terraDrawSetup.js';
import { i18n } from '../i18n/i18n.js';

/** The actions of the editing toolbar (components/EditToolbar.tsx). */
export interface EditDrawing {
  /** The layer being edited, while the GUI has a target and the map is up. */
  layer: Layer | null;
  tool: EditTool;
  busy: boolean;
  error: string | null;
  draw(tool: DrawTool): void;
  reshape(): Promise<void>;
  deleteSelected(): Promise<void>;
  /** Leaves the tool and the target: the toolbar goes. */
  finish(): void;
}

/** terra-draw's actions that change a loaded feature's shape in select mode. */
const RESHAPE_ACTIONS = new Set(['dragCoordinate', 'dragFeature', 'insertMidpoint', 'deleteCoordinate']);

const session = () => editSessionStore.getState();

/** A tool taken up: the identify popup (from the last plain click) would cover where the person works. */
function takeUp(tool: EditTool): void {
  identifyStore.getState().close();
  session().setTool(tool);
}

/** The one selected feature of the layer, or why there is none to act on. */
function selectedOf(layerId: string): number[] {
  const s = selectionStore.getState();
  return s.layerId === layerId ? [...s.fids] : [];
}

/**
 * The map side of the person's editing (issue #14). While the layer panel has set a target, a
 * terra-draw instance lives on the map: drawing a shape ends in `edit.add_features`, moving the
 * vertices of the selected feature (loaded in full from `layers/features`) in
 * `edit.update_features`, and "Delete selected" sends `edit.delete_features` — each the
 * person's call through main's dispatcher, audited and undoable. The sketch is cleared after a
 * call succeeds: the layer's own data, fetched again at its new revision, shows the result.
 * Call it in MapView after the layer sync and the highlight, so its layers end on top.
 */
export function useEditDrawing(map: MapLibreMap | null, layers: readonly Layer[]): EditDrawing {
  const bridge = useBridge();
  const trigger = useEntryTrigger();
  const targetId = useEditSession((s) => s.layerId);
  const tool = useEditSession((s) => s.tool);
  const busy = useEditSession((s) => s.busy);
  const error = useEditSession((s) => s.error);
  const layer = (targetId && layers.find((l) => l.id === targetId && l.kind === 'vector')) || null;
  const [draw, setDraw] = useState<TerraDraw | null>(null);
  /** The feature loaded for reshaping: terra-draw's id for it and the layer's fid. */
  const reshaping = useRef<{ id: string | number; fid: number } | null>(null);

  // A target whose layer left the project (removed, undone) is dropped with its toolbar.
  useEffect(() => {
    if (targetId && !layer) session().setTarget(null);
  }, [targetId, layer]);

  // The terra-draw instance exists while there is something to edit.
  const active = !!map && !!layer;
  useEffect(() => {
    if (!active || !map) return;
    const instance = createTerraDraw(map);
    setDraw(instance);
    return () => {
      setDraw(null);
      reshaping.current = null;
      // The map may already be gone (MapView removes it first on unmount); nothing is left to tidy then.
      try {
        instance.stop();
      } catch {
        /* the map and its layers went with it */
      }
    };
  }, [active, map]);

  // After every layer sync (project layers go on top), the sketch goes back above them.
  useEffect(() => {
    if (map && draw) raiseEditLayers(map);
  }, [map, draw, layers]);

  /** One call to main as the person; null on success, else the message (also shown). */
  const call = useCallback(
    async (entry: string, params: Record<string, unknown>): Promise<string | null> => {
      session().setBusy(true);
      session().setError(null);
      const message = await trigger(entry, params);
      session().setBusy(false);
      if (message) session().setError(message);
      return message;
    },
    [trigger],
  );

  const loadForReshape = useCallback(
    async (instance: TerraDraw, layerId: string, fid: number): Promise<string | null> => {
      let geometry: unknown;
      try {
        const answer = await bridge.call('layers/features', { layerId, fids: [fid] });
        geometry = answer.features[0]?.geometry;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
      const shape = toReshapeGeometry(geometry);
      if ('error' in shape) return shape.error;
      instance.clear();
      instance.setMode('select');
      const id = instance.getFeatureId();
      const [check] = instance.addFeatures([{ id, type: 'Feature', geometry: shape.geometry, properties: { mode: shape.mode } }]);
      if (!check?.valid) return check?.reason ? i18n.t('map:reshapeRefusedWhy', { reason: check.reason }) : i18n.t('map:reshapeRefused');
      instance.selectFeature(id);
      reshaping.current = { id, fid };
      return null;
    },
    [bridge],
  );

  // A shape finished: a drawn one is added, a reshaped one updated.
  useEffect(() => {
    if (!draw || !layer) return;
    const layerId = layer.id;
    const onFinish = (id: string | number, context: { mode: string; action: string }) => {
      const feature = draw.getSnapshotFeature(id);
      if (!feature) return;
      const geometry = feature.geometry as Geometry;
      void (async () => {
        if (context.action === 'draw' && context.mode !== 'select') {
          const failed = await call('edit.add_features', { layer: layerId, features: [{ geometry }], crs: 'EPSG:4326' });
          if (!failed) draw.clear();
          return;
        }
        const target = reshaping.current;
        if (context.mode === 'select' && target && target.id === id && RESHAPE_ACTIONS.has(context.action)) {
          const failed = await call('edit.update_features', { layer: layerId, fids: [target.fid], geometry, crs: 'EPSG:4326' });
          if (failed) return;
          // Cleared, then the feature as main now holds it, so the next move starts from there.
          draw.clear();
          const reload = await loadForReshape(draw, layerId, target.fid);
          if (reload) session().setError(reload);
        }
      })();
    };
    draw.on('finish', onFinish);
    return () => draw.off('finish', onFinish);
  }, [draw, layer, call, loadForReshape]);

  /** Back to no tool: the map's clicks select and identify again. */
  const idle = useCallback(() => {
    reshaping.current = null;
    draw?.clear();
    draw?.setMode('static');
    session().setTool('idle');
  }, [draw]);

  // The tool in use, pressed again, is put down.
  const drawTool = useCallback(
    (next: DrawTool) => {
      if (!draw) return;
      if (session().tool === next) return idle();
      reshaping.current = null;
      draw.clear();
      draw.setMode(next);
      takeUp(next);
    },
    [draw, idle],
  );

  const reshape = useCallback(async () => {
    if (!draw || !layer) return;
    if (session().tool === 'reshape') return idle();
    const fids = selectedOf(layer.id);
    if (fids.length !== 1) {
      session().setError(i18n.t('map:reshapeSelectOne', { name: layer.name }));
      return;
    }
    // Reshape owns the map's clicks from now on, so the selection stays as it is.
    takeUp('reshape');
    session().setBusy(true);
    const failed = await loadForReshape(draw, layer.id, fids[0]!);
    session().setBusy(false);
    if (failed) {
      idle();
      session().setError(failed);
    }
  }, [draw, layer, loadForReshape, idle]);

  const deleteSelected = useCallback(async () => {
    if (!layer) return;
    const fids = selectedOf(layer.id);
    if (fids.length === 0) {
      session().setError(i18n.t('map:deleteSelectFirst', { name: layer.name }));
      return;
    }
    const failed = await call('edit.delete_features', { layer: layer.id, fids });
    if (failed) return;
    selectionStore.getState().clear();
    if (reshaping.current && fids.includes(reshaping.current.fid)) idle();
  }, [layer, call, idle]);

  const finish = useCallback(() => {
    reshaping.current = null;
    draw?.clear();
    session().setTarget(null);
  }, [draw]);

  return { layer: draw ? layer : null, tool, busy, error, draw: drawTool, reshape, deleteSelected, finish };
}

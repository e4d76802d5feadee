import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layer } from '../../src-shared/domain/layer.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { attributeTableStore, useAttributeTable } from '../store/attributeTableStore.js';
import { editSessionStore, useEditSession } from '../store/editSessionStore.js';
import { stylePanelStore, useStylePanel } from '../store/stylePanelStore.js';
import { LayerKindIcon } from './LayerKindIcon.js';
import { useDisplayProblems } from '../store/displayProblemsStore.js';
import { isTiledLayer, tiledLayerNote } from '../../src-shared/style/vectorTiles.js';
import { LayerLocate } from './LayerLocate.js';
import { selectMissingLayerIds } from '../store/slices/appInfoSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { i18n } from '../i18n/i18n.js';

/** Slider moves settle for this long before one `layers.set_opacity` goes out. */
const OPACITY_SETTLE_MS = 200;

/**
 * The one-line summary under a layer's name: size or geometry type, features, CRS, joined by ·.
 * The geometry type is GDAL's word for the data (Point, MultiPolygon), kept apart from our text.
 */
function describe(layer: Layer): { geometry: string | null; facts: string[] } {
  const { info } = layer;
  const t = i18n.getFixedT(null, 'layerItem');
  if (layer.kind === 'table')
    return {
      geometry: null,
      facts: [t('tableSummary', { rows: info.featureCount?.toLocaleString() ?? '?', columns: info.fields.length })],
    };
  const facts: string[] = [];
  if (layer.kind === 'raster') facts.push(t('rasterSize', { width: info.width ?? '?', height: info.height ?? '?' }));
  if (layer.kind === 'vector' && info.featureCount != null)
    facts.push(t('features', { count: info.featureCount, formatted: info.featureCount.toLocaleString() }));
  if (info.crs?.epsg) facts.push(`EPSG:${info.crs.epsg}`);
  return { geometry: layer.kind === 'vector' ? (info.geometryType ?? t('vector')) : null, facts };
}

/** The summary as one line: the geometry type in its own span. */
function LayerFacts({ layer }: { layer: Layer }) {
  const { geometry, facts } = describe(layer);
  return (
    <>
      {geometry && <span className="layer-item__geometry">{geometry}</span>}
      {[...(geometry ? [''] : []), ...facts].join(' · ')}
    </>
  );
}

const MOVES = {
  up: { testId: 'layer-up', label: 'moveUp', glyph: '▲' },
  down: { testId: 'layer-down', label: 'moveDown', glyph: '▼' },
} as const;
type Direction = keyof typeof MOVES;

/** Moves the layer one place up or down the drawing order. */
function MoveButton({ direction, disabled, onMove }: { direction: Direction; disabled: boolean; onMove(direction: Direction): void }) {
  const { t } = useTranslation('layerItem');
  const { testId, label: key, glyph } = MOVES[direction];
  const label = t(key);
  return (
    <button
      type="button"
      className="icon-btn"
      data-testid={testId}
      disabled={disabled}
      onClick={() => onMove(direction)}
      aria-label={label}
      title={label}
    >
      {glyph}
    </button>
  );
}

/** One row of the layer panel. Every action is a user call through main's dispatcher. */
export function LayerPanelItem({ layer, isTop, isBottom }: { layer: Layer; isTop: boolean; isBottom: boolean }) {
  const { t } = useTranslation('layerItem');
  const trigger = useEntryTrigger();
  const [error, setError] = useState<string | null>(null);
  // Drafts show the person's change at once; main's `layers/changed` then confirms it.
  const [draftOpacity, setDraftOpacity] = useState<number | null>(null);
  const [draftVisible, setDraftVisible] = useState<boolean | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const tableOpen = useAttributeTable((s) => s.layerId === layer.id);
  const editTarget = useEditSession((s) => s.layerId === layer.id);
  const styleOpen = useStylePanel((s) => s.layerId === layer.id);
  // A layer whose file is missing says so itself (LayerLocate); the map's failure to read it adds nothing.
  const missing = useAppStore(selectMissingLayerIds).includes(layer.id);
  const problem = useDisplayProblems((s) => (missing ? null : (s.byLayer[layer.id] ?? null)));
  const tiled = isTiledLayer(layer);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  async function act(entry: string, params: Record<string, unknown> = {}) {
    setError(null);
    const message = await trigger(entry, { layer: layer.id, ...params });
    if (message) setError(message);
  }

  function onOpacity(percent: number) {
    setDraftOpacity(percent);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void act('layers.set_opacity', { opacity: percent / 100 }).finally(() => setDraftOpacity(null));
    }, OPACITY_SETTLE_MS);
  }

  /**
   * Makes this layer the map's editing target (the toolbar appears), or leaves it. A layer not
   * yet edited gets its working copy first (`edit.start`); its file is never written.
   */
  async function onEditToggle() {
    const session = editSessionStore.getState();
    if (editTarget) return session.setTarget(null);
    session.setTarget(layer.id);
    if (layer.editing) return;
    setError(null);
    const message = await trigger('edit.start', { layer: layer.id });
    if (!message) return;
    setError(message);
    if (editSessionStore.getState().layerId === layer.id) session.setTarget(null);
  }

  function onVisible(next: boolean) {
    setDraftVisible(next);
    void act('layers.set_visibility', { visible: next }).finally(() => setDraftVisible(null));
  }

  const opacity = draftOpacity ?? Math.round(layer.opacity * 100);
  const visible = draftVisible ?? layer.visible;
  const source = layerSource(layer);

  return (
    <li className={`layer-item${visible ? '' : ' layer-item--hidden'}`} data-testid="layer-item" data-layer-name={layer.name}>
      <div className="layer-item__row">
        <input
          type="checkbox"
          data-testid="layer-visibility"
          checked={visible}
          onChange={(e) => onVisible(e.target.checked)}
          aria-label={t('show', { name: layer.name })}
        />
        <LayerKindIcon layer={layer} />
        <button
          type="button"
          className="layer-item__name"
          title={t('zoomHint', { source })}
          onClick={() => void (layer.kind !== 'table' && act('layers.zoom_to'))}
        >
          {layer.name}
        </button>
        {/* The actions sit close together so the layer's name keeps its room. */}
        <span className="layer-item__actions">
          {layer.kind === 'vector' && (
            <button
              type="button"
              className={`icon-btn${editTarget ? ' icon-btn--on' : ''}`}
              data-testid="layer-edit-toggle"
              aria-pressed={editTarget}
              onClick={() => void onEditToggle()}
              aria-label={t(editTarget ? 'stopEditLabel' : 'editLabel', { name: layer.name })}
              title={t(editTarget ? 'stopEditTitle' : 'editTitle')}
            >
              ✎
            </button>
          )}
          {layer.kind !== 'table' && (
            <button
              type="button"
              className={`icon-btn${styleOpen ? ' icon-btn--on' : ''}`}
              data-testid="layer-style-open"
              aria-pressed={styleOpen}
              onClick={() => (styleOpen ? stylePanelStore.getState().close() : stylePanelStore.getState().open(layer.id))}
              aria-label={t(styleOpen ? 'closeStyleLabel' : 'openStyleLabel', { name: layer.name })}
              title={t(styleOpen ? 'closeStyleTitle' : 'openStyleTitle')}
            >
              ◐
            </button>
          )}
          {layer.kind !== 'raster' && (
            <button
              type="button"
              className={`icon-btn${tableOpen ? ' icon-btn--on' : ''}`}
              data-testid="layer-open-table"
              aria-pressed={tableOpen}
              onClick={() => (tableOpen ? attributeTableStore.getState().close() : attributeTableStore.getState().open(layer.id))}
              aria-label={t(tableOpen ? 'closeTableLabel' : 'openTableLabel', { name: layer.name })}
              title={t(tableOpen ? 'closeTableTitle' : 'openTableTitle')}
            >
              ☷
            </button>
          )}
          <MoveButton direction="up" disabled={isTop} onMove={(direction) => void act('layers.move', { direction })} />
          <MoveButton direction="down" disabled={isBottom} onMove={(direction) => void act('layers.move', { direction })} />
          <button
            type="button"
            className="icon-btn icon-btn--danger"
            data-testid="layer-remove"
            onClick={() => void act('layers.remove')}
            aria-label={t('removeLabel', { name: layer.name })}
            title={t('removeTitle')}
          >
            ✕
          </button>
        </span>
      </div>
      <div className="layer-item__meta">
        <LayerLocate layer={layer} />
        {layer.editing && (
          <span
            className="layer-item__badge"
            data-testid="layer-editing-badge"
            title={t('editingTitle', { original: layer.editing.originalSource })}
          >
            {t('editing')}
          </span>
        )}
        <LayerFacts layer={layer} />
      </div>
      {tiled && (
        <div className="layer-item__display" data-testid="layer-display-note" title={tiledLayerNote(layer.info.featureCount)}>
          {t('tiled')}
        </div>
      )}
      {problem && (
        <div className="layer-item__error" role="alert" data-testid="layer-display-problem">
          {problem}
        </div>
      )}
      <label className="layer-item__opacity">
        <span>{t('opacity')}</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={opacity}
          data-testid="layer-opacity"
          onChange={(e) => onOpacity(Number(e.target.value))}
          aria-label={t('opacityOf', { name: layer.name })}
        />
        <span className="layer-item__opacity-value">{opacity}%</span>
      </label>
      {error && (
        <div className="layer-item__error" role="alert">
          {error}
        </div>
      )}
    </li>
  );
}

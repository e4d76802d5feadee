import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visibleLegends } from '../../src-shared/style/legend.js';
import { selectLayers } from '../store/slices/layersSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { MapLegendEntry } from './MapLegendEntry.js';
import './MapLegend.css';

/**
 * The legend over the map: every visible layer's style, top of the stack first, from the
 * layers in the store (src-shared/style/legend.ts decides what to show). Collapsible.
 */
export function MapLegend() {
  const { t } = useTranslation('map');
  const layers = useAppStore(selectLayers);
  const legends = useMemo(() => visibleLegends(layers), [layers]);
  const [open, setOpen] = useState(true);
  if (legends.length === 0) return null;
  return (
    <section className="map-legend" data-testid="map-legend" aria-label={t('legend')}>
      <button type="button" className="map-legend__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('legend')} <span aria-hidden="true">{open ? '−' : '+'}</span>
      </button>
      {open && (
        <div className="map-legend__body">
          {legends.map((legend) => (
            <div key={legend.layerId} className="map-legend__layer" data-testid="legend-layer" data-layer-name={legend.name}>
              <div className="map-legend__name">{legend.name}</div>
              {legend.entries.map((entry, i) => (
                <MapLegendEntry key={i} entry={entry} />
              ))}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

import maplibregl, { type Map as MapLibreMap } from 'maplibre-gl';
import { useTranslation } from 'react-i18next';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { identifyStore, useIdentify, type IdentifySection } from '../store/identifyStore.js';
import { cellText } from '../table/tableFormat.js';
import './IdentifyPopup.css';

const close = () => identifyStore.getState().close();

/** Header, tip and a margin: what the popup needs beside its scrolling body. */
const POPUP_CHROME_PX = 64;
const BODY_MIN_PX = 120;
const BODY_MAX_PX = 320;

/** The body's height that fits on the roomier side (above or below) of the clicked point. */
function bodyHeightFor(map: MapLibreMap, at: [number, number]): number {
  const y = map.project(at).y;
  const room = Math.max(y, map.getContainer().clientHeight - y) - POPUP_CHROME_PX;
  return Math.round(Math.min(BODY_MAX_PX, Math.max(BODY_MIN_PX, room)));
}

function Section({ section }: { section: IdentifySection }) {
  const { t } = useTranslation('map');
  return (
    <section className="identify__section" data-testid="identify-section" data-layer-id={section.layerId}>
      <h3 className="identify__layer">{section.layerName}</h3>
      {section.error && (
        <p className="identify__error" role="alert">
          {section.error}
        </p>
      )}
      {section.features.map((feature) => (
        <table key={feature.id} className="identify__feature" data-testid="identify-feature" data-fid={feature.id}>
          <tbody>
            {Object.entries(feature.properties).map(([field, value]) => (
              <tr key={field} data-field={field}>
                <th scope="row">{field}</th>
                <td className={value === null ? 'identify__null' : undefined}>{cellText(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {section.more > 0 && <p className="identify__more">{t('moreHere', { count: section.more })}</p>}
    </section>
  );
}

/**
 * The identify popup: the attributes of every feature under the last plain click, topmost
 * layer first. It is a MapLibre popup (so it follows the map as it pans) with React content
 * rendered into it; its own close button and Escape close it.
 */
export function IdentifyPopup({ map }: { map: MapLibreMap | null }) {
  const { t } = useTranslation(['map', 'common']);
  const at = useIdentify((s) => s.at);
  const loading = useIdentify((s) => s.loading);
  const sections = useIdentify((s) => s.sections);
  const container = useMemo(() => document.createElement('div'), []);
  const popup = useRef<maplibregl.Popup | null>(null);
  const [bodyHeight, setBodyHeight] = useState(BODY_MAX_PX);

  useEffect(() => {
    if (!map || !at) return;
    const opened = new maplibregl.Popup({ closeButton: false, closeOnClick: false, maxWidth: '340px', className: 'identify-popup-frame' })
      .setLngLat(at)
      .setDOMContent(container)
      .addTo(map);
    popup.current = opened;
    return () => {
      opened.remove();
      popup.current = null;
    };
  }, [map, at, container]);

  // MapLibre picks the side the popup opens to from its size when placed; the attributes make
  // it taller once they arrive, so size the body to the room there is and place it again.
  useLayoutEffect(() => {
    if (!map || !at) return;
    setBodyHeight(bodyHeightFor(map, at));
    popup.current?.setLngLat(at);
  }, [map, at, loading, sections, bodyHeight]);

  if (!map || !at) return null;
  return createPortal(
    <div className="identify" data-testid="identify-popup" data-loading={loading}>
      <header className="identify__head">
        <span>{t('identify')}</span>
        <button
          type="button"
          className="icon-btn"
          data-testid="identify-close"
          aria-label={t('close', { ns: 'common' })}
          title={t('closeEsc')}
          onClick={close}
        >
          ×
        </button>
      </header>
      <div className="identify__body" style={{ maxHeight: bodyHeight }}>
        {loading && <p className="identify__loading">{t('readingAttributes')}</p>}
        {!loading && sections.length === 0 && <p className="identify__loading">{t('nothingHere')}</p>}
        {sections.map((section) => (
          <Section key={section.layerId} section={section} />
        ))}
      </div>
    </div>,
    container,
  );
}

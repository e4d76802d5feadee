import { measureReading } from '../map/measureFormat.js';
import { useTranslation } from 'react-i18next';
import { measureStore, useMeasure } from '../store/measureStore.js';
import './MeasureControl.css';

const store = () => measureStore.getState();

/** A ruler: the measure tool's toggle. */
function RulerIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
      <path
        d="M3 16.5 16.5 3 21 7.5 7.5 21Z M7 12.5l2 2 M9.5 10l1.5 1.5 M12 7.5l2 2 M14.5 5l1.5 1.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The measure tool's button (under the map's zoom buttons) and, while it is on, its panel:
 * distance or area, the reading of the clicked points (`data-metres` / `data-square-metres`
 * hold the raw number for tests and copy-paste), and Clear. The map side is useMeasureTool.
 */
export function MeasureControl() {
  const { t } = useTranslation('map');
  const active = useMeasure((s) => s.active);
  const mode = useMeasure((s) => s.mode);
  const points = useMeasure((s) => s.points);
  const finished = useMeasure((s) => s.finished);
  const reading = measureReading(mode, points);
  const raw = mode === 'distance' ? { 'data-metres': String(reading.value) } : { 'data-square-metres': String(reading.value) };

  return (
    <div className="measure-control">
      <button
        type="button"
        className={`measure-control__toggle${active ? ' measure-control__toggle--on' : ''}`}
        data-testid="measure-tool"
        aria-pressed={active}
        title={active ? t('stopMeasuring') : t('measureTitle')}
        onClick={() => store().setActive(!active)}
      >
        <RulerIcon />
      </button>
      {active && (
        <div className="measure-control__panel" role="group" aria-label={t('measure')}>
          <div className="measure-control__modes">
            {(['distance', 'area'] as const).map((m) => (
              <button
                key={m}
                type="button"
                data-testid={`measure-mode-${m}`}
                aria-pressed={mode === m}
                className={mode === m ? 'measure-control__mode--on' : undefined}
                onClick={() => store().setMode(m)}
              >
                {m === 'distance' ? t('distance') : t('area')}
              </button>
            ))}
            <button type="button" data-testid="measure-clear" disabled={points.length === 0} onClick={() => store().clear()}>
              {t('clear')}
            </button>
          </div>
          <output className="measure-control__result" data-testid="measure-result" data-finished={finished} {...raw}>
            {reading.text}
          </output>
          <p className="measure-control__hint">{t(`hint_${mode}`)}</p>
        </div>
      )}
    </div>
  );
}

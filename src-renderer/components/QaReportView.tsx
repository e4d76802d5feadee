import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isQaFailed, qaOutcomesOf, type QaOutcome, type QaReport } from '../../src-shared/domain/qaReport.js';

/**
 * The QA report of the layers a call produced (issue 17), under its tool card: a line per
 * layer (count, CRS, nodata, invalid geometries), then its warnings, highlighted. The warning
 * texts are main's, the same the model reads; their titles are the interface's.
 */
export function QaReportView({ data }: { data: unknown }) {
  const { t } = useTranslation('qa');
  const outcomes = useMemo(() => qaOutcomesOf(data), [data]);
  if (outcomes.length === 0) return null;
  const warnings = outcomes.reduce((n, o) => n + (isQaFailed(o) ? 0 : o.warnings.length), 0);
  return (
    <div className={`qa-report${warnings ? ' qa-report--warn' : ''}`} data-testid="qa-report" data-warnings={warnings}>
      <div className="qa-report__title">{t('title')}</div>
      {outcomes.map((o, i) => (
        <QaLayer key={`${o.layer}-${i}`} outcome={o} />
      ))}
    </div>
  );
}

function QaLayer({ outcome }: { outcome: QaOutcome }) {
  const { t } = useTranslation('qa');
  if (isQaFailed(outcome))
    return (
      <div className="qa-report__line qa-report__line--failed" data-testid="qa-failed">
        <span className="qa-report__layer">{outcome.layer}</span> · {t('failed')}:{' '}
        <span className="qa-report__message">{outcome.failed}</span>
      </div>
    );
  return (
    <div className="qa-report__item">
      <div className="qa-report__line" data-testid="qa-layer">
        <span className="qa-report__layer">{outcome.layer}</span>
        {facts(outcome, t).map((fact) => (
          <span key={fact}> · {fact}</span>
        ))}
      </div>
      {outcome.warnings.map((w) => (
        <div key={w.code} className="qa-report__warning" data-testid="qa-warning" data-code={w.code} role="note">
          <strong>{t(`code_${w.code}`)}</strong>: <span className="qa-report__message">{w.message}</span>
        </div>
      ))}
    </div>
  );
}

type T = ReturnType<typeof useTranslation<'qa'>>['t'];

/** The short facts of a layer: its size, its CRS, what the checks counted. */
function facts(r: QaReport, t: T): string[] {
  const out: string[] = [];
  if (r.features !== undefined && r.features !== null)
    out.push(t('features', { count: r.features, formatted: r.features.toLocaleString('en') }));
  if (r.pixels !== undefined) out.push(t('pixels', { formatted: r.pixels.toLocaleString('en') }));
  out.push(r.crs ?? t('noCrs'));
  for (const b of r.nodataShare ?? []) out.push(t('nodata', { band: b.band, percent: Math.round(b.share * 1000) / 10 }));
  if (r.invalidGeometries)
    out.push(t('invalid', { count: r.invalidGeometries.count, formatted: r.invalidGeometries.count.toLocaleString('en') }));
  return out;
}

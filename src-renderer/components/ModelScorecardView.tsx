import { useTranslation } from 'react-i18next';
import type { ProbeResult, Scorecard } from '../../src-shared/domain/modelScorecard.js';

/**
 * The model scorecard (issue 17): the score, when it was run, and each probe with a
 * pass/fail mark and its evidence folded under it. While a run goes, the probes graded so far.
 */
export function ModelScorecardView({
  scorecard,
  running,
}: {
  scorecard: Scorecard | null;
  running: { done: number; total: number; results: ProbeResult[] } | null;
}) {
  const { t, i18n } = useTranslation('settings');
  const results = running ? running.results : (scorecard?.results ?? []);
  if (!running && !scorecard) return null;
  return (
    <section
      className="scorecard"
      data-testid="settings-scorecard"
      data-state={running ? 'running' : 'done'}
      data-passed={scorecard && !running ? scorecard.passed : undefined}
      data-total={scorecard && !running ? scorecard.total : undefined}
      data-ran-at={scorecard && !running ? scorecard.ranAt : undefined}
    >
      <header className="scorecard__head">
        <strong>{t('scorecardTitle')}</strong>
        {running ? (
          <span data-testid="settings-scorecard-progress">{t('scorecardRunning', { done: running.done + 1, total: running.total })}</span>
        ) : (
          scorecard && (
            <>
              <span className="scorecard__score" data-testid="settings-scorecard-score">
                {t('scorecardScore', { passed: scorecard.passed, total: scorecard.total })}
              </span>
              <span className="scorecard__when" data-testid="settings-scorecard-ran-at">
                {t('scorecardRanAt', { time: new Date(scorecard.ranAt).toLocaleString(i18n.language) })}
              </span>
            </>
          )
        )}
      </header>
      <ol className="scorecard__probes">
        {results.map((result) => (
          <li key={result.id} data-testid="scorecard-probe" data-probe-id={result.id} data-pass={result.pass ? 'true' : 'false'}>
            <details>
              <summary>
                <span
                  className={`scorecard__mark scorecard__mark--${result.pass ? 'pass' : 'fail'}`}
                  role="img"
                  aria-label={result.pass ? t('scorecardPass') : t('scorecardFail')}
                >
                  {result.pass ? '✓' : '✗'}
                </span>
                {t(`probe_${result.id}`)}
              </summary>
              {/* Main's words about what the model did, quoted as sent. */}
              <p className="scorecard__evidence" data-testid="scorecard-evidence">
                {result.evidence}
              </p>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

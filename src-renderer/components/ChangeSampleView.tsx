import type { ChangeSample } from '../../src-shared/domain/chat.js';
import { useTranslation } from 'react-i18next';
import './ChangeSampleView.css';

type Cell = ChangeSample['rows'][number]['after'] extends (infer C)[] | null ? C : never;

/**
 * An edit's rows as they are and as they will be (issue #14): one table, a row per feature,
 * each column showing before → after; a deleted row is struck through, an added row has no
 * "before". The total says how many rows the call touches beyond the few shown.
 */
export function ChangeSampleView({ sample }: { sample: ChangeSample }) {
  const { t } = useTranslation('approval');
  const more = sample.total - sample.rows.length;
  return (
    <div className="change-sample" data-testid="approval-sample" data-total={sample.total}>
      <table>
        <thead>
          <tr>
            <th>fid</th>
            {sample.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sample.rows.map((row, i) => (
            <tr
              key={row.fid ?? `new-${i}`}
              className={row.after === null ? 'change-sample__deleted' : row.before === null ? 'change-sample__added' : ''}
            >
              <td>{row.fid ?? t('newRow')}</td>
              {sample.columns.map((c, k) => (
                <td key={c}>
                  <Change before={row.before?.[k]} after={row.after?.[k]} deleted={row.after === null} added={row.before === null} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="change-sample__total">
        {more > 0 ? t('sampleTotalMore', { count: sample.total, more }) : t('sampleTotal', { count: sample.total })}
      </div>
    </div>
  );
}

function Change({
  before,
  after,
  deleted,
  added,
}: {
  before: Cell | undefined;
  after: Cell | undefined;
  deleted: boolean;
  added: boolean;
}) {
  if (deleted) return <span className="change-sample__old">{show(before)}</span>;
  if (added) return <span className="change-sample__new">{show(after)}</span>;
  if (show(before) === show(after)) return <span>{show(before)}</span>;
  return (
    <>
      <span className="change-sample__old">{show(before)}</span> → <span className="change-sample__new">{show(after)}</span>
    </>
  );
}

function show(v: Cell | undefined): string {
  return v === null || v === undefined ? '∅' : String(v);
}

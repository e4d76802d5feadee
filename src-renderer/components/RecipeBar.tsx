import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntryRun } from '../bridge/useEntryTrigger.js';
import { selectRunLive } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './RecipeBar.css';
import { RecipeRunPanel } from './RecipeRunPanel.js';

interface Exported {
  recipe: string;
  script: string | null;
  skipped: { tool: string; reason: string }[];
}

type Outcome = { kind: 'saved'; exported: Exported } | { kind: 'error'; message: string } | null;

/**
 * The chat dock's recipe actions (issue 17): "Export recipe" runs `recipes.export` on the
 * current conversation and shows where the files went; "Run recipe…" opens the replay panel.
 */
export function RecipeBar() {
  const { t } = useTranslation('recipes');
  const run = useEntryRun();
  const live = useAppStore(selectRunLive);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [panelOpen, setPanelOpen] = useState(false);

  const exportRecipe = async () => {
    setBusy(true);
    setOutcome(null);
    const answer = await run('recipes.export', {});
    setBusy(false);
    setOutcome(answer.ok ? { kind: 'saved', exported: answer.data as Exported } : { kind: 'error', message: answer.message });
  };

  return (
    <div className="recipe-bar">
      <div className="recipe-bar__buttons">
        <button
          type="button"
          className="btn btn--small"
          data-testid="recipe-export"
          title={t('exportTitle')}
          disabled={busy || live}
          onClick={() => void exportRecipe()}
        >
          {busy ? t('exporting') : t('export')}
        </button>
        <button
          type="button"
          className="btn btn--small"
          data-testid="recipe-run-open"
          title={t('runTitle')}
          aria-expanded={panelOpen}
          onClick={() => setPanelOpen((o) => !o)}
        >
          {t('runOpen')}
        </button>
      </div>
      {outcome?.kind === 'saved' && (
        <div className="recipe-bar__note" data-testid="recipe-exported" role="status">
          <div>{t('exported', { path: outcome.exported.recipe })}</div>
          <div>{outcome.exported.script ? t('script', { path: outcome.exported.script }) : t('noScript')}</div>
          {outcome.exported.skipped.length > 0 && (
            <div className="recipe-bar__skipped">
              {t('skipped', {
                count: outcome.exported.skipped.length,
                list: outcome.exported.skipped.map((s) => `${s.tool} (${s.reason})`).join('; '),
              })}
            </div>
          )}
        </div>
      )}
      {outcome?.kind === 'error' && (
        <div className="recipe-bar__error" data-testid="recipe-exported" role="alert">
          {outcome.message}
        </div>
      )}
      {panelOpen && <RecipeRunPanel onClose={() => setPanelOpen(false)} />}
    </div>
  );
}

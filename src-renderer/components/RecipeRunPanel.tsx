import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecipeListing, RecipeProgress } from '../../src-shared/domain/recipe.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useEntryRun } from '../bridge/useEntryTrigger.js';
import { selectLayers } from '../store/slices/layersSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { toolTitle } from '../i18n/toolTitles.js';

type Status = { kind: 'idle' } | { kind: 'running'; line: string } | { kind: 'done'; line: string } | { kind: 'error'; line: string };

/**
 * "Run recipe" (issue 17): pick a recipe of the outputs folder, map each of its inputs to a
 * project layer, Run. Main replays it step by step; each step asks in the approval dialog as
 * any change does, so this panel stays open beside it (not modal) and follows the progress.
 */
export function RecipeRunPanel({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('recipes');
  const bridge = useBridge();
  const run = useEntryRun();
  const layers = useAppStore(selectLayers);
  const [list, setList] = useState<{ recipes: RecipeListing[]; dir: string } | null>(null);
  const [file, setFile] = useState('');
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  useEffect(() => {
    let live = true;
    bridge
      .call('recipes/list', {})
      .then((answer) => {
        if (!live) return;
        setList(answer);
        setFile((f) => f || answer.recipes.find((r) => r.problem === null)?.file || '');
      })
      .catch((e: unknown) => live && setStatus({ kind: 'error', line: e instanceof Error ? e.message : String(e) }));
    const off = bridge.on('recipes/progressed', (p: RecipeProgress) => {
      // Main's message is English; the line is said in the interface language from its parts.
      if (p.status === 'running')
        setStatus({ kind: 'running', line: t('stepRunning', { step: p.step, count: p.count, tool: toolTitle(p.tool, p.title) }) });
    });
    return () => {
      live = false;
      off();
    };
  }, [bridge, t]);

  const recipe = list?.recipes.find((r) => r.file === file) ?? null;
  const running = status.kind === 'running';
  const ready = recipe !== null && recipe.problem === null && recipe.inputs.every((i) => inputs[i.id]);

  const start = async () => {
    if (!recipe) return;
    setStatus({ kind: 'running', line: t('running') });
    const chosen = Object.fromEntries(recipe.inputs.map((i) => [i.id, inputs[i.id]!]));
    const answer = await run('recipes.run', { file: recipe.file, inputs: chosen });
    if (!answer.ok) return setStatus({ kind: 'error', line: answer.message });
    const made = (answer.data as { steps: unknown[]; layers: string[] }) ?? { steps: [], layers: [] };
    setStatus({
      kind: 'done',
      line: made.layers.length
        ? t('done', { count: made.steps.length, layers: made.layers.join(', ') })
        : t('doneNoLayers', { count: made.steps.length }),
    });
  };

  return (
    <section className="recipe-panel" role="dialog" aria-labelledby="recipe-panel-title" data-testid="recipe-dialog">
      <header className="recipe-panel__head">
        <h3 id="recipe-panel-title">{t('dialogTitle')}</h3>
        <button type="button" className="icon-btn" aria-label={t('close')} onClick={onClose} disabled={running}>
          ×
        </button>
      </header>
      {list === null ? (
        <p>{t('loading')}</p>
      ) : list.recipes.length === 0 ? (
        <p>{t('none')}</p>
      ) : (
        <>
          <p className="recipe-panel__hint">{t('folder', { dir: list.dir })}</p>
          <label className="recipe-panel__field">
            {t('file')}
            <select data-testid="recipe-file" value={file} disabled={running} onChange={(e) => setFile(e.target.value)}>
              {list.recipes.map((r) => (
                <option key={r.file} value={r.file}>
                  {r.problem ? `⚠ ${r.file}` : `${r.name} — ${r.file}`}
                </option>
              ))}
            </select>
          </label>
          {recipe?.problem && <p className="recipe-panel__error">{t('invalid', { problem: recipe.problem })}</p>}
          {recipe && !recipe.problem && (
            <>
              <p className="recipe-panel__hint">
                {t('steps', { count: recipe.steps.length, tools: recipe.steps.map((s) => s.tool).join(' → ') })}
              </p>
              {recipe.inputs.map((input) => (
                <label key={input.id} className="recipe-panel__field">
                  {t('inputFor', { id: input.id, from: input.from })}
                  <select
                    data-testid="recipe-input"
                    data-input={input.id}
                    value={inputs[input.id] ?? ''}
                    disabled={running}
                    onChange={(e) => setInputs((m) => ({ ...m, [input.id]: e.target.value }))}
                  >
                    <option value="">{t('chooseLayer')}</option>
                    {layers
                      .filter((l) => input.kind === null || l.kind === input.kind)
                      .map((l) => (
                        <option key={l.id} value={l.id}>
                          {l.name}
                        </option>
                      ))}
                  </select>
                </label>
              ))}
            </>
          )}
          <div className="recipe-panel__actions">
            {running && (
              <button type="button" className="btn" data-testid="recipe-stop" onClick={() => void run('recipes.stop', {})}>
                {t('stop')}
              </button>
            )}
            <button
              type="button"
              className="btn btn--primary"
              data-testid="recipe-run"
              disabled={!ready || running}
              onClick={() => void start()}
            >
              {t('run')}
            </button>
          </div>
        </>
      )}
      {status.kind !== 'idle' && (
        <p
          className={`recipe-panel__status recipe-panel__status--${status.kind}`}
          data-testid="recipe-status"
          data-state={status.kind}
          role="status"
        >
          {status.line}
        </p>
      )}
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectionReport, ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';
import { MIN_THINKING_BUDGET, MODEL_PRESETS, presetOf, type ModelProviderId } from '../../src-shared/domain/modelPresets.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { applyPreset, draftOf, formFromView, keyStateOf, type FormErrors, type SettingsForm } from '../lib/settingsForm.js';
import { appStore } from '../store/appStore.js';
import { selectDisplaySettings, selectSettingsOpen } from '../store/slices/settingsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ConnectionReportView } from './ConnectionReportView.js';
import { LanguageSetting } from './LanguageSetting.js';
import { ModelScorecardView } from './ModelScorecardView.js';
import { useModelScorecard } from './useModelScorecard.js';
import { keyStorageText } from './settingsText.js';
import './settings.css';

/** The gear in the status bar. */
export function SettingsOpenButton() {
  const { t } = useTranslation('settings');
  return (
    <button
      type="button"
      className="status-bar__settings"
      data-testid="settings-open"
      title={t('openTitle')}
      onClick={() => appStore.getState().openSettings()}
    >
      <span aria-hidden="true">⚙</span> {t('openLabel')}
    </button>
  );
}

/** The model settings panel; mounted only while open, so every opening starts from main's copy. */
export function SettingsPanel() {
  const open = useAppStore(selectSettingsOpen);
  return open ? <SettingsDialog /> : null;
}

function SettingsDialog() {
  const { t } = useTranslation('settings');
  const bridge = useBridge();
  const [view, setView] = useState<ModelSettingsView | null>(null);
  const [form, setForm] = useState<SettingsForm>(() => formFromView(null));
  const [errors, setErrors] = useState<FormErrors>({});
  const [models, setModels] = useState<{ list: string[]; error: string | null; loading: boolean }>({
    list: [],
    error: null,
    loading: false,
  });
  const [report, setReport] = useState<ConnectionReport | null>(null);
  const [busy, setBusy] = useState<'test' | 'score' | 'save' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => appStore.getState().closeSettings();
  const closeRef = useRef(close);
  const endpoint =
    view && /^https?:\/\/\S+$/i.test(form.url.trim()) && form.model.trim() !== ''
      ? { provider: form.provider, wire: form.wire, url: form.url.trim(), model: form.model.trim() }
      : null;
  const scorecard = useModelScorecard(bridge, endpoint);

  useEffect(() => {
    let live = true;
    bridge.call('settings/get', {}).then(
      (loaded) => {
        if (!live) return;
        setView(loaded);
        setForm(formFromView(loaded));
      },
      (e: unknown) => live && setFailure(messageOf(e)),
    );
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && closeRef.current();
    document.addEventListener('keydown', onKey);
    return () => {
      live = false;
      document.removeEventListener('keydown', onKey);
    };
  }, [bridge]);

  const update = (patch: Partial<SettingsForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setReport(null);
  };

  async function listModels() {
    if (!/^https?:\/\/\S+$/i.test(form.url.trim())) return;
    setModels((m) => ({ ...m, loading: true }));
    const apiKey = form.apiKey.trim();
    const found = await bridge
      .call('settings/list-models', { provider: form.provider, wire: form.wire, url: form.url.trim(), ...(apiKey ? { apiKey } : {}) })
      .catch((e: unknown) => ({ models: [], error: messageOf(e) }));
    setModels({ list: found.models, error: found.error, loading: false });
  }

  async function run(kind: 'test' | 'score' | 'save') {
    const checked = draftOf(form);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setBusy(kind);
    setFailure(null);
    try {
      if (kind === 'test') {
        const result = await bridge.call('settings/test-connection', checked.draft);
        setReport(result);
        if (result.models && result.models.length > 0) setModels({ list: result.models, error: null, loading: false });
      } else if (kind === 'score') {
        await scorecard.run(checked.draft);
      } else {
        await bridge.call('settings/save', { ...checked.draft, clearKey: form.clearKey });
        close();
      }
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(null);
    }
  }

  const preset = presetOf(form.provider);
  const keyState = keyStateOf(view, form);
  const anthropic = form.wire === 'anthropic';

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="settings-panel" role="dialog" aria-modal="true" aria-labelledby="settings-title" data-testid="settings-panel">
        <header className="settings-panel__head">
          <h2 id="settings-title">{t('title')}</h2>
          <button type="button" className="icon-btn" aria-label={t('close', { ns: 'common' })} onClick={close}>
            ×
          </button>
        </header>
        <div className="settings-panel__body">
          {view?.envOverride.active && (
            <p className="settings-panel__banner" data-testid="settings-env-override">
              {t('envOverride', {
                count: view.envOverride.variables.length,
                variables: view.envOverride.variables.join(', '),
                summary: view.envOverride.summary,
              })}
            </p>
          )}
          <label className="settings-field">
            <span>{t('provider')}</span>
            <select
              data-testid="settings-provider"
              value={form.provider}
              onChange={(e) => update(applyPreset(form, e.target.value as ModelProviderId))}
            >
              {MODEL_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id === 'custom' ? t('presetLabel_custom') : p.label}
                </option>
              ))}
            </select>
            <small>{t(`presetNote_${preset.id}`)}</small>
          </label>
          {form.provider === 'custom' && (
            <label className="settings-field">
              <span>{t('wireFormat')}</span>
              <select
                data-testid="settings-wire"
                value={form.wire}
                onChange={(e) => update({ wire: e.target.value as SettingsForm['wire'] })}
              >
                <option value="openai">{t('wireOpenai')}</option>
                <option value="anthropic">{t('wireAnthropic')}</option>
              </select>
            </label>
          )}
          <label className="settings-field">
            <span>{t('address')}</span>
            <input
              data-testid="settings-url"
              value={form.url}
              placeholder="http://127.0.0.1:8000/v1"
              spellCheck={false}
              onChange={(e) => update({ url: e.target.value })}
              onBlur={() => void listModels()}
            />
            {errors.url && <em className="settings-field__error">{t('errorUrl')}</em>}
          </label>
          <div className="settings-field">
            <span>{t('model')}</span>
            <div className="settings-field__row">
              <input
                data-testid="settings-model"
                list="settings-model-list"
                value={form.model}
                placeholder={preset.exampleModel || t('modelPlaceholder')}
                spellCheck={false}
                onChange={(e) => update({ model: e.target.value })}
                onFocus={() => models.list.length === 0 && !models.loading && void listModels()}
              />
              <datalist id="settings-model-list">
                {models.list.map((id) => (
                  <option key={id} value={id} />
                ))}
              </datalist>
              <button
                type="button"
                className="btn"
                data-testid="settings-list-models"
                onClick={() => void listModels()}
                disabled={models.loading}
              >
                {models.loading ? t('listing') : t('listModels')}
              </button>
            </div>
            {errors.model && <em className="settings-field__error">{t('errorModel')}</em>}
            <small data-testid="settings-models-status">
              {models.error
                ? t('listFailed', { error: models.error })
                : models.list.length > 0
                  ? t('modelsOffered', { count: models.list.length })
                  : ''}
            </small>
          </div>
          <label className="settings-field">
            <span>{t('apiKey')}</span>
            <input
              data-testid="settings-key"
              type="password"
              autoComplete="off"
              value={form.apiKey}
              placeholder={keyState === 'set' ? t('keySetPlaceholder') : preset.needsKey ? t('keyRequired') : t('keyNotNeeded')}
              onChange={(e) => update({ apiKey: e.target.value, clearKey: false })}
            />
            <small data-testid="settings-key-status" data-key-state={keyState}>
              {keyState === 'set' && (
                <>
                  {t('keyIsSet')}{' '}
                  <label className="settings-inline">
                    <input
                      type="checkbox"
                      data-testid="settings-clear-key"
                      checked={form.clearKey}
                      onChange={(e) => update({ clearKey: e.target.checked, apiKey: '' })}
                    />{' '}
                    {t('removeIt')}
                  </label>
                </>
              )}
              {keyState === 'other-address' && t('keyOtherAddress')}
            </small>
            <small className="settings-field__note" data-testid="settings-key-storage">
              {view && keyStorageText(view.keyStorage, t)}
            </small>
          </label>
          <label className="settings-field">
            <span>{t('thinkingBudget')}</span>
            <input
              data-testid="settings-thinking-budget"
              inputMode="numeric"
              value={anthropic ? form.thinkingBudget : ''}
              placeholder={anthropic ? t('thinkingPlaceholder') : t('anthropicOnly')}
              disabled={!anthropic}
              onChange={(e) => update({ thinkingBudget: e.target.value })}
            />
            {errors.thinkingBudget && <em className="settings-field__error">{t('errorThinkingBudget', { min: MIN_THINKING_BUDGET })}</em>}
            <small>{t('thinkingHelp')}</small>
          </label>
          <OnlineBasemapSetting />
          <LanguageSetting />
          {report && <ConnectionReportView report={report} />}
          <ModelScorecardView scorecard={scorecard.scorecard} running={scorecard.running} />
          {failure && (
            <p className="settings-field__error" role="alert">
              {failure}
            </p>
          )}
        </div>
        <footer className="settings-panel__foot">
          <button type="button" className="btn" data-testid="settings-test" onClick={() => void run('test')} disabled={busy !== null}>
            {busy === 'test' ? t('testing') : t('testConnection')}
          </button>
          <button
            type="button"
            className="btn"
            data-testid="settings-scorecard-run"
            onClick={() => void run('score')}
            disabled={busy !== null}
          >
            {busy === 'score' ? t('scoring') : t('runScorecard')}
          </button>
          <span className="settings-panel__spacer" />
          <button type="button" className="btn" data-testid="settings-cancel" onClick={close}>
            {t('cancel', { ns: 'common' })}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="settings-save"
            onClick={() => void run('save')}
            disabled={busy !== null}
          >
            {busy === 'save' ? t('saving') : t('save', { ns: 'common' })}
          </button>
        </footer>
      </div>
    </div>
  );
}

/**
 * The online basemap (off by default): applied at once, apart from the model form's Save.
 * Its tiles are fetched by main from one fixed address, never by this page.
 */
function OnlineBasemapSetting() {
  const { t } = useTranslation('settings');
  const bridge = useBridge();
  const display = useAppStore(selectDisplaySettings);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!display)
      void bridge.call('settings/get-display', {}).then(
        (d) => appStore.getState().setDisplaySettings(d),
        () => undefined,
      );
  }, [bridge, display]);
  async function toggle(onlineBasemap: boolean) {
    setFailure(null);
    try {
      appStore.getState().setDisplaySettings(await bridge.call('settings/set-display', { onlineBasemap }));
    } catch (e) {
      setFailure(messageOf(e));
    }
  }
  return (
    <div className="settings-field">
      <span>{t('basemap')}</span>
      <label className="settings-inline">
        <input
          type="checkbox"
          data-testid="settings-online-basemap"
          checked={display?.onlineBasemap === true}
          disabled={!display}
          onChange={(e) => void toggle(e.target.checked)}
        />{' '}
        {t('onlineBasemap')}
      </label>
      <small>{t('basemapHelp')}</small>
      {failure && <em className="settings-field__error">{failure}</em>}
    </div>
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { useEffect, useRef, useState } from 'react';
import type { ConnectionReport, ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';
import { MODEL_PRESETS, presetOf, type ModelProviderId } from '../../src-shared/domain/modelPresets.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { applyPreset, draftOf, formFromView, keyStateOf, type FormErrors, type SettingsForm } from '../lib/settingsForm.js';
import { appStore } from '../store/appStore.js';
import { selectDisplaySettings, selectSettingsOpen } from '../store/slices/settingsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ConnectionReportView } from './ConnectionReportView.js';
import './settings.css';

/** The gear in the status bar. */
export function SettingsOpenButton() {
  return (
    <button
      type="button"
      className="status-bar__settings"
      data-testid="settings-open"
      title="Model settings"
      onClick={() => appStore.getState().openSettings()}
    >
      <span aria-hidden="true">⚙</span> Model
    </button>
  );
}

/** The model settings panel; mounted only while open, so every opening starts from main's copy. */
export function SettingsPanel() {
  const open = useAppStore(selectSettingsOpen);
  return open ? <SettingsDialog /> : null;
}

function SettingsDialog() {
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
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => appStore.getState().closeSettings();
  const closeRef = useRef(close);

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

  async function run(kind: 'test' | 'save') {
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
          <h2 id="settings-title">Model</h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
            ×
          </button>
        </header>
        <div className="settings-panel__body">
          {view?.envOverride.active && (
            <p className="settings-panel__banner" data-testid="settings-env-override">
              {view.envOverride.variables.join(', ')} {view.envOverride.variables.length === 1 ? 'is' : 'are'} set: the app uses{' '}
              {view.envOverride.summary} and these settings are kept for when the variables are gone.
            </p>
          )}
          <label className="settings-field">
            <span>Provider</span>
            <select
              data-testid="settings-provider"
              value={form.provider}
              onChange={(e) => update(applyPreset(form, e.target.value as ModelProviderId))}
            >
              {MODEL_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
            <small>{preset.note}</small>
          </label>
          {form.provider === 'custom' && (
            <label className="settings-field">
              <span>Wire format</span>
              <select
                data-testid="settings-wire"
                value={form.wire}
                onChange={(e) => update({ wire: e.target.value as SettingsForm['wire'] })}
              >
                <option value="openai">OpenAI-compatible Chat Completions</option>
                <option value="anthropic">Anthropic Messages</option>
              </select>
            </label>
          )}
          <label className="settings-field">
            <span>Address</span>
            <input
              data-testid="settings-url"
              value={form.url}
              placeholder="http://127.0.0.1:8000/v1"
              spellCheck={false}
              onChange={(e) => update({ url: e.target.value })}
              onBlur={() => void listModels()}
            />
            {errors.url && <em className="settings-field__error">{errors.url}</em>}
          </label>
          <div className="settings-field">
            <span>Model</span>
            <div className="settings-field__row">
              <input
                data-testid="settings-model"
                list="settings-model-list"
                value={form.model}
                placeholder={preset.exampleModel || 'model name'}
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
                {models.loading ? 'Listing…' : 'List models'}
              </button>
            </div>
            {errors.model && <em className="settings-field__error">{errors.model}</em>}
            <small data-testid="settings-models-status">
              {models.error
                ? `Could not list models: ${models.error}`
                : models.list.length > 0
                  ? `${models.list.length} model${models.list.length === 1 ? '' : 's'} offered by the endpoint`
                  : ''}
            </small>
          </div>
          <label className="settings-field">
            <span>API key</span>
            <input
              data-testid="settings-key"
              type="password"
              autoComplete="off"
              value={form.apiKey}
              placeholder={
                keyState === 'set'
                  ? 'A key is set — leave empty to keep it'
                  : preset.needsKey
                    ? 'Required by this provider'
                    : 'Not needed for local servers'
              }
              onChange={(e) => update({ apiKey: e.target.value, clearKey: false })}
            />
            <small data-testid="settings-key-status" data-key-state={keyState}>
              {keyState === 'set' && (
                <>
                  A key is set.{' '}
                  <label className="settings-inline">
                    <input
                      type="checkbox"
                      data-testid="settings-clear-key"
                      checked={form.clearKey}
                      onChange={(e) => update({ clearKey: e.target.checked, apiKey: '' })}
                    />{' '}
                    remove it
                  </label>
                </>
              )}
              {keyState === 'other-address' &&
                'The saved key was entered for another address; it is not sent here. Type it again to use it.'}
            </small>
            <small className="settings-field__note" data-testid="settings-key-storage">
              {view?.keyStorage.note}
            </small>
          </label>
          <label className="settings-field">
            <span>Thinking budget</span>
            <input
              data-testid="settings-thinking-budget"
              inputMode="numeric"
              value={anthropic ? form.thinkingBudget : ''}
              placeholder={anthropic ? 'Off — e.g. 4096 tokens' : 'Anthropic only'}
              disabled={!anthropic}
              onChange={(e) => update({ thinkingBudget: e.target.value })}
            />
            {errors.thinkingBudget && <em className="settings-field__error">{errors.thinkingBudget}</em>}
            <small>Extended thinking stays off until a budget is set. Other endpoints show their reasoning when they send it.</small>
          </label>
          <OnlineBasemapSetting />
          {report && <ConnectionReportView report={report} />}
          {failure && (
            <p className="settings-field__error" role="alert">
              {failure}
            </p>
          )}
        </div>
        <footer className="settings-panel__foot">
          <button type="button" className="btn" data-testid="settings-test" onClick={() => void run('test')} disabled={busy !== null}>
            {busy === 'test' ? 'Testing…' : 'Test connection'}
          </button>
          <span className="settings-panel__spacer" />
          <button type="button" className="btn" data-testid="settings-cancel" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="settings-save"
            onClick={() => void run('save')}
            disabled={busy !== null}
          >
            {busy === 'save' ? 'Saving…' : 'Save'}
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
      <span>Basemap</span>
      <label className="settings-inline">
        <input
          type="checkbox"
          data-testid="settings-online-basemap"
          checked={display?.onlineBasemap === true}
          disabled={!display}
          onChange={(e) => void toggle(e.target.checked)}
        />{' '}
        Online basemap (OpenStreetMap)
      </label>
      <small>
        Off: the offline world map shipped with the app, nothing is fetched. On: map tiles come from tile.openstreetmap.org, fetched by
        Mapwright itself, so that server sees which areas you view. Applied at once.
      </small>
      {failure && <em className="settings-field__error">{failure}</em>}
    </div>
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

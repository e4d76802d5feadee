import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import {
  EMPTY_WEB_SOURCE_DRAFT,
  WEB_SOURCE_FORM_KINDS,
  webSourceKindLabel,
  needsLayerName,
  urlHint,
  urlPlaceholder,
  webSourceDraftProblem,
  webSourceParams,
  type WebSourceDraft,
  type WebSourceFormKind,
} from './WebSourceFormat.js';
import './WebSourceForm.css';

/**
 * "Add web source" in the layer panel: the person's way to `layers.add_web_source`. It runs as
 * the user through main's dispatcher, so the network dialog names the origin like it does for
 * the model's calls. Main's error stays under the form with the values kept; success closes it.
 */
export function WebSourceAdd() {
  const { t } = useTranslation('layers');
  const [open, setOpen] = useState(false);
  return (
    <div className="web-source">
      {open ? (
        <WebSourceForm onDone={() => setOpen(false)} />
      ) : (
        <button type="button" className="btn btn--small" data-testid="add-web-source" onClick={() => setOpen(true)}>
          {t('addWebSourceButton')}
        </button>
      )}
    </div>
  );
}

function WebSourceForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation(['layers', 'common']);
  const trigger = useEntryTrigger();
  const [draft, setDraft] = useState<WebSourceDraft>(EMPTY_WEB_SOURCE_DRAFT);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // An edit makes the last message stale: it goes until the next Add.
  const set = (patch: Partial<WebSourceDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setError(null);
  };
  const hint = urlHint(draft.kind);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = webSourceDraftProblem(draft);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const message = await trigger('layers.add_web_source', webSourceParams(draft));
    setBusy(false);
    if (message) setError(message);
    else onDone();
  }

  return (
    <form
      className="web-source__form"
      data-testid="web-source-form"
      aria-label={t('addWebSource')}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <label className="web-source__field">
        <span>{t('kind')}</span>
        <select data-testid="web-source-kind" value={draft.kind} onChange={(e) => set({ kind: e.target.value as WebSourceFormKind })}>
          {WEB_SOURCE_FORM_KINDS.map((k) => (
            <option key={k} value={k}>
              {webSourceKindLabel(k)}
            </option>
          ))}
        </select>
      </label>
      <label className="web-source__field">
        <span>{t('url')}</span>
        <input
          type="url"
          data-testid="web-source-url"
          value={draft.url}
          placeholder={urlPlaceholder(draft.kind)}
          onChange={(e) => set({ url: e.target.value })}
          autoFocus
          spellCheck={false}
        />
        {hint && <small>{hint}</small>}
      </label>
      {needsLayerName(draft.kind) && (
        <label className="web-source__field">
          <span>{t('layer')}</span>
          <input type="text" data-testid="web-source-layer" value={draft.layer} onChange={(e) => set({ layer: e.target.value })} />
        </label>
      )}
      <label className="web-source__field">
        <span>{t('nameOptional')}</span>
        <input type="text" data-testid="web-source-name" value={draft.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      {error && (
        <div className="layer-item__error" role="alert" data-testid="web-source-error">
          {error}
        </div>
      )}
      <div className="web-source__actions">
        <button type="button" className="btn btn--small" onClick={onDone} disabled={busy}>
          {t('cancel', { ns: 'common' })}
        </button>
        <button type="submit" className="btn btn--small btn--primary" data-testid="web-source-submit" disabled={busy}>
          {busy ? t('adding') : t('add')}
        </button>
      </div>
    </form>
  );
}

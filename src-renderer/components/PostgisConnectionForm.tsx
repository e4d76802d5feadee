import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PgConnectionDraft, PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { EMPTY_PG_FORM, formOf, saveParamsOf, SSL_MODES, type PgConnectionForm } from './postgisFormat.js';
import { messageOf } from './usePostgisConnections.js';

/**
 * Adds a connection, or edits one (`editing`). The password field never shows the stored
 * password (main never sends it): empty keeps it, the box removes it. Main checks the draft;
 * its refusal stays under the form with the values kept.
 */
export function PostgisConnectionForm({
  editing,
  onSave,
  onDone,
}: {
  editing: PgConnectionListed | null;
  onSave(connection: PgConnectionDraft, password?: string | null): Promise<unknown>;
  onDone(): void;
}) {
  const { t } = useTranslation(['postgis', 'common']);
  const [form, setForm] = useState<PgConnectionForm>(() => (editing ? formOf(editing) : EMPTY_PG_FORM));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<PgConnectionForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setError(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { connection, password } = saveParamsOf(form, editing?.id);
    setBusy(true);
    try {
      await onSave(connection, password);
      onDone();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  const text = (key: 'name' | 'host' | 'database' | 'user' | 'outputSchema', testId: string, hint?: string) => (
    <label className="postgis-field">
      <span>{t(key)}</span>
      <input
        type="text"
        data-testid={testId}
        value={form[key]}
        spellCheck={false}
        autoFocus={key === 'name'}
        onChange={(e) => set({ [key]: e.target.value })}
      />
      {hint && <small>{hint}</small>}
    </label>
  );

  return (
    <form
      className="postgis-form"
      data-testid="postgis-form"
      aria-label={editing ? t('formEdit') : t('formAdd')}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <strong className="postgis-form__title">{editing ? t('formEdit') : t('formAdd')}</strong>
      {text('name', 'postgis-name')}
      <div className="postgis-form__row">
        {text('host', 'postgis-host')}
        <label className="postgis-field postgis-field--port">
          <span>{t('port')}</span>
          <input
            type="text"
            inputMode="numeric"
            data-testid="postgis-port"
            value={form.port}
            onChange={(e) => set({ port: e.target.value })}
          />
        </label>
      </div>
      {text('database', 'postgis-database')}
      {text('user', 'postgis-user')}
      <label className="postgis-field">
        <span>{t('password')}</span>
        <input
          type="password"
          data-testid="postgis-password"
          value={form.password}
          autoComplete="new-password"
          disabled={form.removePassword}
          placeholder={editing?.hasPassword ? '••••••••' : ''}
          onChange={(e) => set({ password: e.target.value })}
        />
        <small>{editing?.hasPassword ? t('passwordKeepHint') : t('passwordNewHint')}</small>
      </label>
      {editing?.hasPassword && (
        <label className="postgis-form__check">
          <input
            type="checkbox"
            data-testid="postgis-remove-password"
            checked={form.removePassword}
            onChange={(e) => set({ removePassword: e.currentTarget.checked, password: '' })}
          />
          <span>{t('removePassword')}</span>
        </label>
      )}
      <label className="postgis-field">
        <span>{t('sslmode')}</span>
        <select
          data-testid="postgis-sslmode"
          value={form.sslmode}
          onChange={(e) => set({ sslmode: e.target.value as PgConnectionForm['sslmode'] })}
        >
          {SSL_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`sslmode_${mode}`)}
            </option>
          ))}
        </select>
      </label>
      {text('outputSchema', 'postgis-output-schema', t('outputSchemaHint'))}
      {error && (
        <div className="layer-item__error" role="alert" data-testid="postgis-error">
          {error}
        </div>
      )}
      <div className="postgis-form__actions">
        <button type="button" className="btn btn--small" data-testid="postgis-cancel" onClick={onDone} disabled={busy}>
          {t('cancel', { ns: 'common' })}
        </button>
        <button type="submit" className="btn btn--small btn--primary" data-testid="postgis-save" disabled={busy}>
          {busy ? t('saving') : t('save', { ns: 'common' })}
        </button>
      </div>
    </form>
  );
}

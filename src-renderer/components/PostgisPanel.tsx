import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PgConnectionListed } from '../../src-shared/domain/pgConnection.js';
import { PostgisConnectionForm } from './PostgisConnectionForm.js';
import { PostgisConnectionItem } from './PostgisConnectionItem.js';
import { usePostgisConnections } from './usePostgisConnections.js';
import './PostgisPanel.css';

/** The layer panel's "PostGIS" button; the panel is mounted only while open, so each opening reads main's list. */
export function PostgisOpenButton() {
  const { t } = useTranslation('postgis');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn--small postgis-open"
        data-testid="postgis-open"
        aria-expanded={open}
        title={t('openTitle')}
        onClick={() => setOpen(!open)}
      >
        {t('openButton')}
      </button>
      {open && <PostgisPanel onClose={() => setOpen(false)} />}
    </>
  );
}

type FormState = { mode: 'add' } | { mode: 'edit'; connection: PgConnectionListed } | null;

/**
 * PostgreSQL/PostGIS connections (issue 16): the saved ones, a form to add or edit one, and
 * per connection Test, Browse (tables to load), Edit and Delete. A popover like Add data.
 * Everything goes through main's `postgis/*` methods; the renderer never sees a password.
 */
export function PostgisPanel({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(['postgis', 'common']);
  const { connections, passwordStore, loaded, error, save, remove } = usePostgisConnections();
  const [form, setForm] = useState<FormState>(null);
  // The parent's close only flips its state: the first one stays right for the panel's life.
  const closeRef = useRef(onClose);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && closeRef.current();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="popover postgis-panel" role="dialog" aria-label={t('title')} data-testid="postgis-panel">
      <header className="popover__head">
        <strong>{t('title')}</strong>
        <button type="button" className="icon-btn" aria-label={t('closePanel')} data-testid="postgis-close" onClick={onClose}>
          ✕
        </button>
      </header>
      {error && (
        <div className="layer-item__error" role="alert">
          {t('loadError', { error })}
        </div>
      )}
      <div className="postgis-panel__scroll">
        {form ? (
          <PostgisConnectionForm
            key={form.mode === 'edit' ? form.connection.id : 'new'}
            editing={form.mode === 'edit' ? form.connection : null}
            onSave={save}
            onDone={() => setForm(null)}
          />
        ) : (
          <button type="button" className="btn btn--small" data-testid="postgis-add" onClick={() => setForm({ mode: 'add' })}>
            {t('add')}
          </button>
        )}
        {!loaded ? (
          <p className="postgis-panel__empty">{t('loading')}</p>
        ) : connections.length === 0 ? (
          <p className="postgis-panel__empty">{t('none')}</p>
        ) : (
          <ul className="postgis-panel__list">
            {connections.map((c) => (
              // Keyed by the whole spec: an edited connection's item starts afresh (no stale test or tables).
              <PostgisConnectionItem
                key={JSON.stringify(c)}
                connection={c}
                onEdit={() => setForm({ mode: 'edit', connection: c })}
                onDelete={() => remove(c.id)}
              />
            ))}
          </ul>
        )}
      </div>
      {passwordStore && (
        <p className="postgis-panel__note" data-testid="postgis-password-store">
          {t('passwordStore', { where: passwordStore })}
        </p>
      )}
    </div>
  );
}

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Result } from '../../src-shared/bridge/contract.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useFolderListing } from '../files/useFolderListing.js';
import { FileKindIcon } from './FileKindIcon.js';
import { FolderBrowser, type FolderEntry } from './FolderBrowser.js';
import './AddDataDialog.css';

type RecentProject = Result<'project/recent'>['projects'][number];
export type ProjectDialogMode = 'open' | 'save-as';

const EXTENSION = '.mapwright';

/**
 * Open or save a project (issue #15): a path field, the folder browser main lists, and (to
 * open) the recent projects. Save as proposes the current name in the folder being browsed.
 * Main answers and then switches project; the window reloads on `project/switched`
 * (ProjectBar), so success leaves the dialog saying "Opening…".
 */
export function ProjectDialog({ mode, currentName, onClose }: { mode: ProjectDialogMode; currentName: string; onClose(): void }) {
  const { t } = useTranslation('project');
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const onError = useCallback((message: string) => setError(message), []);
  const { listing, open } = useFolderListing(onError);
  const [path, setPath] = useState('');
  const [fileName, setFileName] = useState(`${currentName.replace(/[\\/:*?"<>|]/g, '_') || 'project'}${EXTENSION}`);
  const [recent, setRecent] = useState<RecentProject[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (mode !== 'open') return;
    bridge.call('project/recent', {}).then(
      (r) => setRecent(r.projects.filter((p) => !p.current)),
      () => setRecent([]),
    );
  }, [bridge, mode]);

  // Saving: the path follows the folder browsed, keeping the file name the person typed.
  useEffect(() => {
    if (mode === 'save-as' && listing) setPath(`${listing.dir}/${fileName}`);
  }, [mode, listing, fileName]);

  async function go(target: string) {
    setBusy(true);
    setError(null);
    try {
      await bridge.call(mode === 'open' ? 'project/open' : 'project/save-as', { path: target });
      // Stays busy: the window reloads when main has switched.
    } catch (err) {
      setBusy(false);
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = path.trim();
    if (!text) return setError(t('pathHint'));
    void go(text);
  }

  function pick(entry: FolderEntry) {
    if (!listing) return;
    if (mode === 'save-as') setFileName(entry.name);
    setPath(`${listing.dir}/${entry.name}`);
    setError(null);
  }

  const title = mode === 'open' ? t('dialogOpen') : t('dialogSaveAs');
  return (
    <div className="add-data" role="dialog" aria-label={title} data-testid="project-dialog" data-mode={mode}>
      <header className="add-data__head">
        <strong>{title}</strong>
        <button
          type="button"
          className="icon-btn"
          aria-label={t('close', { ns: 'common' })}
          data-testid="project-dialog-close"
          onClick={onClose}
        >
          ✕
        </button>
      </header>
      <form className="add-data__path" onSubmit={submit}>
        <input
          type="text"
          data-testid="project-path"
          aria-label={t('path')}
          title={t('pathHint')}
          value={path}
          placeholder={`/path/to/project${EXTENSION}`}
          spellCheck={false}
          autoFocus
          onChange={(e) => {
            setPath(e.target.value);
            if (mode === 'save-as') setFileName(e.target.value.split('/').pop() ?? '');
            setError(null);
          }}
          disabled={busy}
        />
        <button type="submit" className="btn btn--small btn--primary" data-testid="project-submit" disabled={busy}>
          {busy ? t('working') : mode === 'open' ? t('submitOpen') : t('submitSaveAs')}
        </button>
      </form>
      {error && (
        <div className="layer-item__error" role="alert" data-testid="project-error">
          {error}
        </div>
      )}
      <FolderBrowser
        listing={listing}
        selected={path.split('/').pop() ?? null}
        onOpen={(dir) => void open(dir)}
        onPick={pick}
        onLoad={(entry) => mode === 'open' && listing && void go(`${listing.dir}/${entry.name}`)}
      />
      {recent.length > 0 && (
        <section className="add-data__recent">
          <h4>{t('recent')}</h4>
          <ul>
            {recent.map((p) => (
              <li key={p.path}>
                <button
                  type="button"
                  className="add-data__entry"
                  data-testid="project-recent-item"
                  data-path={p.path}
                  title={p.exists ? p.path : `${p.path} — ${t('recentGone')}`}
                  disabled={busy || !p.exists}
                  onClick={() => void go(p.path)}
                >
                  <FileKindIcon kind="recent" />
                  <span className="add-data__name">{p.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

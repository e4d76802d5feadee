import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Result } from '../../src-shared/bridge/contract.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useFolderListing } from '../files/useFolderListing.js';
import { FolderBrowser, type FolderEntry } from './FolderBrowser.js';
import { PathDialog, RecentEntries } from './PathDialog.js';

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

  function submit(text: string) {
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
    <PathDialog
      ids={{
        dialog: 'project-dialog',
        close: 'project-dialog-close',
        path: 'project-path',
        submit: 'project-submit',
        error: 'project-error',
      }}
      mode={mode}
      title={title}
      path={path}
      onPathChange={(text) => {
        setPath(text);
        if (mode === 'save-as') setFileName(text.split('/').pop() ?? '');
        setError(null);
      }}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={busy ? t('working') : mode === 'open' ? t('submitOpen') : t('submitSaveAs')}
      busy={busy}
      error={error}
      placeholder={`/path/to/project${EXTENSION}`}
      pathLabel={t('path')}
      pathHint={t('pathHint')}
    >
      <FolderBrowser
        listing={listing}
        selected={path.split('/').pop() ?? null}
        onOpen={(dir) => void open(dir)}
        onPick={pick}
        onLoad={(entry) => mode === 'open' && listing && void go(`${listing.dir}/${entry.name}`)}
      />
      <RecentEntries
        heading={t('recent')}
        itemTestId="project-recent-item"
        entries={recent.map((p) => ({
          path: p.path,
          name: p.name,
          title: p.exists ? p.path : `${p.path} — ${t('recentGone')}`,
          disabled: busy || !p.exists,
          onPick: () => void go(p.path),
        }))}
      />
    </PathDialog>
  );
}

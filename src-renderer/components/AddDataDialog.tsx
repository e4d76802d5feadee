import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Result } from '../../src-shared/bridge/contract.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useFolderListing } from '../files/useFolderListing.js';
import { useLoadFile } from '../files/useLoadFile.js';
import { FolderBrowser, type FolderEntry } from './FolderBrowser.js';
import { PathDialog, RecentEntries } from './PathDialog.js';

type RecentFile = Result<'files/recent'>['files'][number];

/** The file picked in the browser: its path as shown and the token main gave for it. */
interface Picked {
  name: string;
  path: string;
  token: string;
}

/**
 * "Add data" without the chat (issue #15): a path field, a folder browser main lists from the
 * person's home, and the recent files. A file picked in the browser or the recent list loads by
 * main's token, without a dialog; a path typed (or edited) in the field is sent as text and
 * main asks for it. Success closes the dialog; main's error stays under the field.
 */
export function AddDataDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(['layers', 'common']);
  const bridge = useBridge();
  const load = useLoadFile();
  const [path, setPath] = useState('');
  const [picked, setPicked] = useState<Picked | null>(null);
  const [recent, setRecent] = useState<RecentFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { listing, open } = useFolderListing(useCallback((message: string) => setError(message), []));

  useEffect(() => {
    bridge.call('files/recent', {}).then(
      (r) => setRecent(r.files),
      () => setRecent([]),
    );
  }, [bridge]);

  async function run(action: () => Promise<string | null>) {
    setBusy(true);
    setError(null);
    const message = await action();
    setBusy(false);
    if (message) setError(message);
    else onClose();
  }

  function pick(entry: FolderEntry) {
    if (!listing || !entry.token) return;
    const p = { name: entry.name, path: `${listing.dir}/${entry.name}`, token: entry.token };
    setPicked(p);
    setPath(p.path);
    setError(null);
  }

  function submit(text: string) {
    if (!text) return setError(t('typePath'));
    // Only the exact path main listed is trusted; anything typed or edited is asked for.
    const token = picked && picked.path === text ? picked.token : null;
    void run(() => (token ? load.byToken(token) : load.byPath(text)));
  }

  return (
    <PathDialog
      ids={{
        dialog: 'add-data-dialog',
        close: 'add-data-close',
        path: 'add-data-path',
        submit: 'add-data-submit',
        error: 'add-data-error',
      }}
      title={t('addData')}
      path={path}
      onPathChange={(text) => {
        setPath(text);
        setError(null);
      }}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={busy ? t('loading') : t('load')}
      busy={busy}
      error={error}
      placeholder="/path/to/data.gpkg"
    >
      <FolderBrowser
        listing={listing}
        selected={picked?.name ?? null}
        onOpen={(dir) => void open(dir)}
        onPick={pick}
        onLoad={(entry) => entry.token && void run(() => load.byToken(entry.token!))}
      />
      <RecentEntries
        heading={t('recentFiles')}
        listTestId="add-data-recent"
        itemTestId="add-data-recent-item"
        entries={recent.map((f) => ({
          path: f.path,
          name: f.name,
          title: f.path,
          disabled: busy,
          onPick: () => void run(() => load.byToken(f.token)),
        }))}
      />
    </PathDialog>
  );
}

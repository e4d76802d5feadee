import { useCallback, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Result } from '../../src-shared/bridge/contract.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { useFolderListing } from '../files/useFolderListing.js';
import { appStore } from '../store/appStore.js';
import { selectMissingLayerIds } from '../store/slices/appInfoSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { FolderBrowser, type FolderEntry } from './FolderBrowser.js';
import { PathDialog } from './PathDialog.js';

/**
 * A layer whose file is missing (issue #15): a badge and "Locate…", which points the layer at
 * the file's new place with `layers.locate` as the person — without asking for a file picked
 * in main's folder browser (its token), asking for a path typed by hand. Nothing for a layer
 * whose file is where the project says.
 */
export function LayerLocate({ layer }: { layer: Layer }) {
  const { t } = useTranslation('project');
  const missing = useAppStore(selectMissingLayerIds).includes(layer.id);
  const [open, setOpen] = useState(false);
  if (!missing) return null;
  return (
    <span className="layer-missing">
      <span className="layer-missing__badge" data-testid="layer-missing" title={t('missingTitle', { source: layer.source })}>
        {t('missing')}
      </span>
      <button type="button" className="btn btn--small" data-testid="layer-locate" title={t('locateTitle')} onClick={() => setOpen(true)}>
        {t('locate')}
      </button>
      {open && createPortal(<LocateDialog layer={layer} onClose={() => setOpen(false)} />, document.body)}
    </span>
  );
}

function failure(result: Result<'layers/locate'>): string | null {
  if (result.ok) return null;
  return result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message;
}

function LocateDialog({ layer, onClose }: { layer: Layer; onClose(): void }) {
  const { t } = useTranslation('project');
  const bridge = useBridge();
  const trigger = useEntryTrigger();
  const [error, setError] = useState<string | null>(null);
  const onError = useCallback((message: string) => setError(message), []);
  const { listing, open } = useFolderListing(onError);
  const [path, setPath] = useState('');
  const [picked, setPicked] = useState<{ path: string; token: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function locate(text: string, token: string | null) {
    setBusy(true);
    setError(null);
    let message: string | null;
    try {
      message = token
        ? failure(await bridge.call('layers/locate', { layerId: layer.id, token }))
        : await trigger('layers.locate', { layer: layer.id, path: text });
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
    }
    setBusy(false);
    if (message) return setError(message);
    appStore.getState().markLocated(layer.id);
    onClose();
  }

  function pick(entry: FolderEntry) {
    if (!listing || !entry.token) return;
    const p = { path: `${listing.dir}/${entry.name}`, token: entry.token };
    setPicked(p);
    setPath(p.path);
  }

  function submit(text: string) {
    if (!text) return;
    // Only the exact path main listed travels as its token; anything typed is asked for.
    void locate(text, picked && picked.path === text ? picked.token : null);
  }

  const title = t('dialogLocate', { name: layer.name });
  return (
    <PathDialog
      ids={{ dialog: 'locate-dialog', path: 'locate-path', submit: 'locate-submit', error: 'locate-error' }}
      title={title}
      path={path}
      onPathChange={setPath}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('submitLocate')}
      busy={busy}
      error={error}
      placeholder={layer.source}
      pathLabel={t('locatePath')}
    >
      <FolderBrowser
        listing={listing}
        selected={picked?.path.split('/').pop() ?? null}
        onOpen={(dir) => void open(dir)}
        onPick={pick}
        onLoad={(entry) => listing && entry.token && void locate(`${listing.dir}/${entry.name}`, entry.token)}
      />
    </PathDialog>
  );
}

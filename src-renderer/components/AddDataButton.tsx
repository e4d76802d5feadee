import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/BridgeContext.js';
import { useLoadFile } from '../files/useLoadFile.js';
import { selectAppInfo } from '../store/slices/appInfoSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { AddDataDialog } from './AddDataDialog.js';

/**
 * The layer panel's "Add data" (issue #15). Under Electron it opens the native open dialog in
 * main (`files/choose`) and loads what was picked; the web host has none, so it opens the
 * app's own dialog: a path field and a folder browser.
 */
export function AddDataButton() {
  const { t } = useTranslation('layers');
  const bridge = useBridge();
  const load = useLoadFile();
  const host = useAppStore(selectAppInfo)?.host;
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setError(null);
    if (host !== 'electron') return setOpen(true);
    try {
      const chosen = await bridge.call('files/choose', {});
      if (!chosen.available) return setOpen(true);
      for (const file of chosen.files) {
        const message = await load.byToken(file.token);
        if (message) return setError(message);
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <>
      <button type="button" className="btn btn--small" data-testid="add-data" onClick={() => void start()}>
        {t('addDataButton')}
      </button>
      {error && (
        <div className="layer-item__error" role="alert" data-testid="add-data-error">
          {error}
        </div>
      )}
      {open && <AddDataDialog onClose={() => setOpen(false)} />}
    </>
  );
}

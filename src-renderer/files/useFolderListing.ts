import { useCallback, useEffect, useState } from 'react';
import { useBridge } from '../bridge/BridgeContext.js';
import type { FolderListing } from '../components/FolderBrowser.js';

/**
 * One folder main lists for a dialog's browser (`files/list`), starting at the browse root:
 * the listing, a way to open another folder, and main's refusal when one fails.
 */
export function useFolderListing(onError: (message: string) => void) {
  const bridge = useBridge();
  const [listing, setListing] = useState<FolderListing | null>(null);
  const open = useCallback(
    async (dir?: string) => {
      try {
        setListing(await bridge.call('files/list', dir === undefined ? {} : { dir }));
      } catch (err) {
        onError(err instanceof Error ? err.message : String(err));
      }
    },
    [bridge, onError],
  );
  useEffect(() => {
    void open();
  }, [open]);
  return { listing, open };
}

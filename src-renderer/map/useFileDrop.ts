import { createElement, Fragment, useEffect, useState, type ReactNode, type RefObject } from 'react';
import { mainFileOf } from '../../src-shared/files/gisFiles.js';
import { electronFilePath } from '../bridge/electronFilePath.js';
import { useLoadFile } from '../files/useLoadFile.js';
import { uploadDropped } from '../files/uploadDropped.js';
import { selectAppInfo } from '../store/slices/appInfoSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { i18n } from '../i18n/i18n.js';

const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') === true;

/**
 * Files dropped on the map are loaded as layers (issue #15), as the person. Under Electron the
 * preload gives each file's real path, sent like a typed path (main asks). In the web host the
 * browser gives bytes only: they are uploaded into the project's outputs folder and loaded from
 * main's own copy by its token (no dialog: main chose that path). Of several files dropped
 * together (a Shapefile's .shp/.shx/.dbf/.prj) the main one is loaded.
 *
 * Returns what to draw over the map: the drop overlay while files are dragged over it, the
 * progress line and the error of the last drop.
 */
export function useFileDrop(target: RefObject<HTMLElement | null>): ReactNode {
  const appInfo = useAppStore(selectAppInfo);
  const load = useLoadFile();
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const el = target.current;
    if (!el || !appInfo) return;
    // dragenter/leave fire for every child crossed: count them so the overlay does not flicker.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth += 1;
      setOver(true);
      setError(null);
    };
    const overMap = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      void loadDropped(files);
    };

    async function loadDropped(files: File[]) {
      const mainName = mainFileOf(files.map((f) => f.name));
      const main = files.find((f) => f.name === mainName);
      if (!main) {
        const names = files.map((f) => f.name);
        setError(
          names.length === 1
            ? i18n.t('map:dropNotFormat', { name: names[0] })
            : names.length > 1
              ? i18n.t('map:dropNoneFormat', { names: names.join(', ') })
              : i18n.t('map:dropNoneFormatUnnamed'),
        );
        return;
      }
      setBusy(i18n.t('map:dropLoading', { name: main.name }));
      try {
        const path = electronFilePath(main);
        const message =
          path !== null
            ? await load.byPath(path)
            : appInfo!.host === 'web'
              ? await load.byToken(await uploadDropped(files, main, appInfo!))
              : i18n.t('map:dropNoPath');
        if (message) setError(message);
      } catch (err) {
        setError(err instanceof Error ? err.message : String(err));
      } finally {
        setBusy(null);
      }
    }

    el.addEventListener('dragenter', enter);
    el.addEventListener('dragover', overMap);
    el.addEventListener('dragleave', leave);
    el.addEventListener('drop', drop);
    return () => {
      el.removeEventListener('dragenter', enter);
      el.removeEventListener('dragover', overMap);
      el.removeEventListener('dragleave', leave);
      el.removeEventListener('drop', drop);
    };
  }, [target, appInfo, load]);

  return createElement(
    Fragment,
    null,
    over && createElement('div', { className: 'map-drop-overlay', 'data-testid': 'map-drop-overlay' }, i18n.t('map:dropOverlay')),
    busy && createElement('div', { className: 'map-drop-status', 'data-testid': 'map-drop-status', role: 'status' }, busy),
    error &&
      createElement(
        'div',
        {
          className: 'map-drop-error',
          'data-testid': 'map-drop-error',
          role: 'alert',
          title: i18n.t('map:clickToDismiss'),
          onClick: () => setError(null),
        },
        error,
      ),
  );
}

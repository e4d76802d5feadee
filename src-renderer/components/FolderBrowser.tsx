import type { Result } from '../../src-shared/bridge/contract.js';
import { useTranslation } from 'react-i18next';
import { FileKindIcon } from './FileKindIcon.js';

export type FolderListing = Result<'files/list'>;
export type FolderEntry = FolderListing['entries'][number];

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/**
 * One folder main listed (`files/list`): folders first, then files, data files marked. A click
 * on a folder opens it, on a file picks it; a double-click on a file loads it.
 */
export function FolderBrowser(props: {
  listing: FolderListing | null;
  selected: string | null;
  onOpen(dir: string): void;
  onPick(entry: FolderEntry): void;
  onLoad(entry: FolderEntry): void;
}) {
  const { t } = useTranslation('layers');
  const { listing } = props;
  return (
    <div className="add-data__browser" data-testid="add-data-browser">
      <div className="add-data__where">
        <button
          type="button"
          className="btn btn--small"
          data-testid="add-data-up"
          disabled={!listing?.parent}
          onClick={() => listing?.parent && props.onOpen(listing.parent)}
          title={t('upTitle')}
        >
          {t('up')}
        </button>
        {/* Right-to-left so a long path is cut at its start; the inner span keeps the path itself in order. */}
        <code className="add-data__dir" title={listing?.dir}>
          <span dir="ltr">{listing?.dir ?? t('reading')}</span>
        </code>
      </div>
      <ul className="add-data__entries" aria-label={t('folderContents')}>
        {listing?.entries.map((e) => (
          <li key={`${e.kind}:${e.name}`}>
            <button
              type="button"
              className={`add-data__entry add-data__entry--${e.kind}${e.gis ? ' add-data__entry--gis' : ''}${props.selected === e.name ? ' is-selected' : ''}`}
              data-testid="add-data-entry"
              data-name={e.name}
              data-kind={e.kind}
              onClick={() => (e.kind === 'dir' ? props.onOpen(`${listing.dir}/${e.name}`) : props.onPick(e))}
              onDoubleClick={() => e.kind === 'file' && props.onLoad(e)}
            >
              <FileKindIcon kind={e.kind === 'dir' ? 'dir' : e.gis ? 'data' : 'file'} />
              <span className="add-data__name">{e.name}</span>
              {e.kind === 'file' && <small>{formatSize(e.size)}</small>}
            </button>
          </li>
        ))}
        {listing && listing.entries.length === 0 && <li className="add-data__empty">{t('folderEmpty')}</li>}
      </ul>
      {listing?.truncated && <p className="add-data__note">{t('truncated', { count: listing.entries.length })}</p>}
    </div>
  );
}

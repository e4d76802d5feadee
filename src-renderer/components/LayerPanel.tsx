import { selectLayersTopFirst } from '../store/slices/layersSlice.js';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../store/useAppStore.js';
import { AddDataButton } from './AddDataButton.js';
import { LayerPanelItem } from './LayerPanelItem.js';
import { PostgisOpenButton } from './PostgisPanel.js';
import { UndoButtons } from './UndoButtons.js';
import { WebSourceAdd } from './WebSourceForm.js';

/** The project's layers, top of the map first. */
export function LayerPanel() {
  const { t } = useTranslation('layers');
  const layers = useAppStore(selectLayersTopFirst);
  return (
    <aside className="layer-panel" aria-label={t('layers')}>
      <header className="panel-header">
        {t('layers')} <span className="panel-header__count">{layers.length || ''}</span>
      </header>
      <UndoButtons />
      <div className="add-data-bar">
        <AddDataButton />
        <PostgisOpenButton />
      </div>
      <WebSourceAdd />
      {layers.length === 0 ? (
        <p className="layer-panel__empty">{t('empty')}</p>
      ) : (
        <ul className="layer-panel__list">
          {layers.map((layer, i) => (
            <LayerPanelItem key={layer.id} layer={layer} isTop={i === 0} isBottom={i === layers.length - 1} />
          ))}
        </ul>
      )}
    </aside>
  );
}

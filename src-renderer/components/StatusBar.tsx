import { selectConnection, selectLoadError, selectModel } from '../store/slices/appInfoSlice.js';
import { useProjectName } from '../store/useProjectName.js';
import { useTranslation } from 'react-i18next';
import { selectRunStatus } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { AuditOpenButton } from './AuditPanel.js';
import { ExportControl } from './ExportDialog.js';
import { CoordinateReadout } from './CoordinateReadout.js';
import { MemoryOpenButton } from './MemoryPanel.js';
import { ModeSelect } from './ModeSelect.js';
import { PluginsOpenButton } from './PluginsPanel.js';
import { SettingsOpenButton } from './SettingsPanel.js';
import { StatusProgress } from './StatusProgress.js';

/** One line at the bottom: project, run, cursor coordinates, model, connection. */
export function StatusBar() {
  const { t } = useTranslation('status');
  const model = useAppStore(selectModel);
  const runStatus = useAppStore(selectRunStatus);
  const connection = useAppStore(selectConnection);
  const loadError = useAppStore(selectLoadError);
  const projectName = useProjectName();
  const modelText = model?.configured ? (model.name ?? t('modelConfigured')) : t('noModel');

  return (
    <footer className="status-bar" data-testid="status-bar">
      {projectName && <span className="status-bar__item status-bar__project">{projectName}</span>}
      <span className={`status-bar__item status-bar__run status-bar__run--${runStatus}`} data-run-status={runStatus}>
        {t(`run_${runStatus}`)}
      </span>
      <StatusProgress />
      {loadError && (
        <span className="status-bar__item status-bar__error" title={loadError}>
          {t('loadError', { error: loadError })}
        </span>
      )}
      <span className="status-bar__spacer" />
      <CoordinateReadout />
      <ExportControl />
      <ModeSelect />
      <AuditOpenButton />
      <PluginsOpenButton />
      <MemoryOpenButton />
      <span
        className="status-bar__item status-bar__model"
        title={model?.help ?? undefined}
        data-model-configured={model?.configured ? 'true' : 'false'}
      >
        {model ? modelText : ''}
      </span>
      <SettingsOpenButton />
      <span className={`status-bar__item status-bar__conn status-bar__conn--${connection}`} data-connection={connection}>
        <span className="status-dot" aria-hidden="true" />
        {t(`conn_${connection}`)}
      </span>
    </footer>
  );
}

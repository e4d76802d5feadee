import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/BridgeContext.js';
import { selectProject, selectProjectSwitch } from '../store/slices/appInfoSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { useProjectName } from '../store/useProjectName.js';
import { ProjectDialog, type ProjectDialogMode } from './ProjectDialog.js';
import './ProjectBar.css';

/** Survives the reload after a failed switch, so the person reads why. */
const SWITCH_ERROR_KEY = 'mapwright.projectSwitchError';

/**
 * The project's name and New / Open… / Save as… (issue #15). When main has switched project
 * (`project/switched`) the window reloads: every part of the page then starts from the new
 * project, as at start-up, instead of each store learning to forget the old one.
 */
export function ProjectBar() {
  const { t } = useTranslation('project');
  const bridge = useBridge();
  const project = useAppStore(selectProject);
  const name = useProjectName();
  const switched = useAppStore(selectProjectSwitch);
  const [dialog, setDialog] = useState<ProjectDialogMode | null>(null);
  const [error, setError] = useState<string | null>(() => sessionStorage.getItem(SWITCH_ERROR_KEY));

  useEffect(() => {
    sessionStorage.removeItem(SWITCH_ERROR_KEY);
  }, []);

  useEffect(() => {
    if (!switched) return;
    if (switched.error) sessionStorage.setItem(SWITCH_ERROR_KEY, switched.error);
    window.location.reload();
  }, [switched]);

  async function newProject() {
    setError(null);
    try {
      await bridge.call('project/new', {});
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <div className="project-bar" data-testid="project-bar">
      <span className="project-bar__name" data-testid="project-name" data-path={project?.path ?? ''} title={project?.path}>
        {name ?? ''}
      </span>
      <button type="button" className="btn btn--small" data-testid="project-new" title={t('newTitle')} onClick={() => void newProject()}>
        {t('new')}
      </button>
      <button type="button" className="btn btn--small" data-testid="project-open" title={t('openTitle')} onClick={() => setDialog('open')}>
        {t('open')}
      </button>
      <button
        type="button"
        className="btn btn--small"
        data-testid="project-save-as"
        title={t('saveAsTitle')}
        onClick={() => setDialog('save-as')}
      >
        {t('saveAs')}
      </button>
      {error && (
        <span className="project-bar__error" role="alert" data-testid="project-switch-error">
          {t('switchFailed', { error })}
        </span>
      )}
      {dialog && <ProjectDialog mode={dialog} currentName={project?.name ?? ''} onClose={() => setDialog(null)} />}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { selectProjectName } from './slices/appInfoSlice.js';
import { useAppStore } from './useAppStore.js';

/** The name main gives a project never named (projectStore.ts); shown in the interface language. */
const DEFAULT_NAME = 'Untitled project';

/** The open project's name as the interface shows it, or null before the project has loaded. */
export function useProjectName(): string | null {
  const { t } = useTranslation('project');
  const name = useAppStore(selectProjectName);
  return name === DEFAULT_NAME ? t('untitled') : name;
}

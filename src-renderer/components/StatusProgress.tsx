import { selectLatestProgress } from '../store/slices/progressSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ProgressBar } from './ProgressBar.js';

/** The running call's progress in the status bar (the latest to report, if several run). */
export function StatusProgress() {
  const progress = useAppStore(selectLatestProgress);
  if (!progress) return null;
  return (
    <ProgressBar
      fraction={progress.fraction}
      message={progress.message}
      testId="status-progress"
      className="status-bar__item progress-bar--status"
    />
  );
}

import type { ToolCallStatus } from '../../src-shared/domain/chat.js';
import { selectCallProgress } from '../store/slices/progressSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ProgressBar } from './ProgressBar.js';

/** The call's progress on its card, while it runs and once the tool has reported some. */
export function ToolCardProgress({ callId, status }: { callId: string; status: ToolCallStatus }) {
  const progress = useAppStore(selectCallProgress(callId));
  if (status !== 'running' || !progress) return null;
  return <ProgressBar fraction={progress.fraction} message={progress.message} testId="tool-card-progress" className="progress-bar--card" />;
}

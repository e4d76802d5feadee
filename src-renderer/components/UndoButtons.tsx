import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { selectRevertTurn, selectUndoLast } from '../store/slices/policySlice.js';
import { selectRunLive } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './ToolLayerControls.css';

/**
 * "Undo" and "Revert this turn" for the project's layers (order, styles, visibility). Files
 * the tools wrote stay on disk; they only leave the project. Main refuses both while a run
 * is live, so the buttons wait too.
 */
export function UndoButtons() {
  const { t } = useTranslation('chat');
  const undo = useAppStore(selectUndoLast);
  const revert = useAppStore(selectRevertTurn);
  const live = useAppStore(selectRunLive);
  const trigger = useEntryTrigger();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(entry: 'commands.undo' | 'commands.revert_turn') {
    setBusy(true);
    setError(null);
    const message = await trigger(entry, {});
    setBusy(false);
    if (message) setError(message);
  }

  const busyHint = t('busyHint');
  return (
    <div className="undo-buttons">
      <button
        type="button"
        className="btn btn--small"
        data-testid="undo-last"
        disabled={!undo || live || busy}
        title={!undo ? t('nothingToUndo') : live ? busyHint : t('undoTitle', { summary: undo.summary })}
        onClick={() => void run('commands.undo')}
      >
        {t('undo')}
      </button>
      <button
        type="button"
        className="btn btn--small"
        data-testid="revert-turn"
        disabled={!revert || live || busy}
        title={!revert ? t('nothingToRevert') : live ? busyHint : t('revertTitle', { count: revert.changes })}
        onClick={() => void run('commands.revert_turn')}
      >
        {t('revertTurn')}
      </button>
      {error && (
        <div className="undo-buttons__error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

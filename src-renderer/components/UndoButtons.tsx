import { useState } from 'react';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { selectRevertTurn, selectUndoLast } from '../store/slices/policySlice.js';
import { selectRunLive } from '../store/slices/runSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './ToolLayerControls.css';

const BUSY_HINT = 'Wait for the assistant to finish (or press Stop) first';

/**
 * "Undo" and "Revert this turn" for the project's layers (order, styles, visibility). Files
 * the tools wrote stay on disk; they only leave the project. Main refuses both while a run
 * is live, so the buttons wait too.
 */
export function UndoButtons() {
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

  const changes = revert ? `${revert.changes} change${revert.changes === 1 ? '' : 's'}` : '';
  return (
    <div className="undo-buttons">
      <button
        type="button"
        className="btn btn--small"
        data-testid="undo-last"
        disabled={!undo || live || busy}
        title={!undo ? 'Nothing to undo' : live ? BUSY_HINT : `Undo: ${undo.summary}`}
        onClick={() => void run('commands.undo')}
      >
        ↶ Undo
      </button>
      <button
        type="button"
        className="btn btn--small"
        data-testid="revert-turn"
        disabled={!revert || live || busy}
        title={!revert ? 'Nothing to revert' : live ? BUSY_HINT : `Revert this turn: undo its ${changes}`}
        onClick={() => void run('commands.revert_turn')}
      >
        Revert this turn
      </button>
      {error && (
        <div className="undo-buttons__error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { selectPlanTargetId } from '../store/slices/policySlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './ToolLayerControls.css';

/**
 * "Run this plan" under the assistant's plan (Plan mode, run idle). The command switches to
 * Ask and sends the go-ahead, so each change of the plan still asks for approval.
 */
export function RunPlanButton({ messageId }: { messageId: string }) {
  const { t } = useTranslation('chat');
  const isTarget = useAppStore((s) => selectPlanTargetId(s) === messageId);
  const trigger = useEntryTrigger();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!isTarget) return null;

  async function runPlan() {
    setBusy(true);
    setError(null);
    const message = await trigger('commands.run_plan', {});
    setBusy(false);
    if (message) setError(message);
  }

  return (
    <div className="run-plan">
      <button type="button" className="btn btn--primary" data-testid="run-plan" disabled={busy} onClick={() => void runPlan()}>
        {t('runPlan')}
      </button>
      <span className="run-plan__note">{t('runPlanNote')}</span>
      {error && (
        <div className="run-plan__error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalMode } from '../../src-shared/domain/toolLayer.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { selectAskForReads, selectMode, selectPolicyLoaded } from '../store/slices/policySlice.js';
import { useAppStore } from '../store/useAppStore.js';
import './ToolLayerControls.css';

const MODES: readonly ApprovalMode[] = ['ask', 'auto', 'plan'];

/**
 * The approval mode and the "reads ask too" setting. Main owns both: a change is a command,
 * and the controls show what `policy/changed` says, with the person's choice in between.
 */
export function ModeSelect() {
  const { t } = useTranslation('chat');
  const mode = useAppStore(selectMode);
  const askForReads = useAppStore(selectAskForReads);
  const loaded = useAppStore(selectPolicyLoaded);
  const trigger = useEntryTrigger();
  const [draftMode, setDraftMode] = useState<ApprovalMode | null>(null);
  const [draftReads, setDraftReads] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(entry: string, params: Record<string, unknown>, done: () => void) {
    setError(null);
    const message = await trigger(entry, params);
    done();
    if (message) setError(message);
  }

  const shownMode = draftMode ?? mode;
  const help = t(`modeHelp_${shownMode}`);
  return (
    <span className="status-bar__item mode-select">
      <label className="mode-select__mode" title={help}>
        {t('mode')}
        <select
          data-testid="mode-select"
          value={shownMode}
          disabled={!loaded}
          aria-label={t('approvalMode')}
          onChange={(e) => {
            const next = e.target.value as ApprovalMode;
            setDraftMode(next);
            void run('commands.set_mode', { mode: next }, () => setDraftMode(null));
          }}
        >
          {MODES.map((m) => (
            <option key={m} value={m} title={t(`modeHelp_${m}`)}>
              {t(`mode_${m}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="mode-select__reads" title={t('readsAskHelp')}>
        <input
          type="checkbox"
          data-testid="ask-for-reads"
          checked={draftReads ?? askForReads}
          disabled={!loaded}
          onChange={(e) => {
            const next = e.target.checked;
            setDraftReads(next);
            void run('commands.set_ask_for_reads', { value: next }, () => setDraftReads(null));
          }}
        />
        {t('readsAsk')}
      </label>
      {error && (
        <span className="mode-select__error" role="alert" title={error}>
          {error}
        </span>
      )}
    </span>
  );
}

import { useEffect, useState } from 'react';
import type { ModelSettingsDraft } from '../../src-shared/bridge/settingsContract.js';
import { SCORECARD_PROBE_IDS, type ProbeResult, type Scorecard } from '../../src-shared/domain/modelScorecard.js';
import type { RendererBridge } from '../bridge/bridgeTypes.js';

export interface ScorecardRun {
  done: number;
  total: number;
  results: ProbeResult[];
}

/**
 * The scorecard of the endpoint the settings form shows: the saved one (fetched whenever the
 * form names a complete endpoint), or the run going on, probe by probe.
 */
export type FormEndpoint = Pick<ModelSettingsDraft, 'provider' | 'wire' | 'url' | 'model'>;

export function useModelScorecard(bridge: RendererBridge, endpoint: FormEndpoint | null) {
  const [scorecard, setScorecard] = useState<Scorecard | null>(null);
  const [running, setRunning] = useState<ScorecardRun | null>(null);
  const key = endpoint ? JSON.stringify(endpoint) : null;

  useEffect(() => {
    setScorecard(null);
    if (key === null) return;
    let live = true;
    const shown = JSON.parse(key) as FormEndpoint;
    bridge.call('settings/get-scorecard', shown).then(
      (card) => live && setScorecard(card),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge, key]);

  async function run(draft: ModelSettingsDraft): Promise<void> {
    setRunning({ done: 0, total: SCORECARD_PROBE_IDS.length, results: [] });
    const off = bridge.on('settings/scorecard-progressed', (p) =>
      setRunning((r) => r && { done: p.done, total: p.total, results: [...r.results, p.result] }),
    );
    try {
      setScorecard(await bridge.call('settings/run-scorecard', draft));
    } finally {
      off();
      setRunning(null);
    }
  }

  return { scorecard, running, run };
}

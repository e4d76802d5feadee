import type { ProbeResult, Scorecard, ScorecardEndpoint } from '../../../src-shared/domain/modelScorecard.js';
import type { AdaptiveModelClient } from '../adaptiveModelClient.js';
import { SCORECARD_PROBES, type ScorecardProbe } from './scorecardProbes.js';

export interface ScorecardRunOptions {
  endpoint: ScorecardEndpoint;
  /** Per probe; a probe that takes longer fails with that as its evidence. */
  timeoutMs?: number;
  probes?: readonly ScorecardProbe[];
  onProgress?: (done: number, total: number, result: ProbeResult) => void;
  now?: () => Date;
}

/**
 * Runs the probes one after another against `client` and grades each. A probe's transport
 * error or timeout fails that probe with the error as evidence; the suite always finishes.
 */
export async function runScorecard(client: AdaptiveModelClient, options: ScorecardRunOptions): Promise<Scorecard> {
  const probes = options.probes ?? SCORECARD_PROBES;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const results: ProbeResult[] = [];
  for (const probe of probes) {
    const result = await runProbe(client, probe, timeoutMs);
    results.push(result);
    options.onProgress?.(results.length, probes.length, result);
  }
  return {
    endpoint: options.endpoint,
    ranAt: (options.now?.() ?? new Date()).toISOString(),
    passed: results.filter((r) => r.pass).length,
    total: results.length,
    results,
  };
}

async function runProbe(client: AdaptiveModelClient, probe: ScorecardProbe, timeoutMs: number): Promise<ProbeResult> {
  const started = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  let textDeltas = 0;
  try {
    const turn = await client.streamTurn(probe.request, {
      signal,
      onTextDelta: () => void (textDeltas += 1),
      onReasoningDelta: () => undefined,
    });
    const grade = probe.grade({ turn, textDeltas, nativeTools: client.capabilities().tools !== 'refused' });
    return { id: probe.id, ...grade, evidence: grade.evidence.slice(0, 600), ms: Date.now() - started };
  } catch (error) {
    const message = signal.aborted
      ? `no answer in ${Math.round(timeoutMs / 1000)} s`
      : error instanceof Error
        ? error.message
        : String(error);
    return { id: probe.id, pass: false, evidence: `error: ${message}`.slice(0, 600), ms: Date.now() - started };
  }
}

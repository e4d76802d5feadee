import { z } from 'zod';

/**
 * The model scorecard (issue 17): a fixed set of probes run against one endpoint, each graded
 * pass/fail with a short quote of what the model did. Saved per endpoint in the app settings
 * and read back through `Scorecard.safeParse`, so an older or damaged entry is simply absent.
 */
export const SCORECARD_PROBE_IDS = [
  'nested-arguments',
  'parallel-calls',
  'valid-json',
  'right-tool',
  'no-retry',
  'abstain',
  'streaming',
  'reasoning-shape',
  'long-context',
  'language-rule',
] as const;
export const ScorecardProbeId = z.enum(SCORECARD_PROBE_IDS);
export type ScorecardProbeId = z.infer<typeof ScorecardProbeId>;

export const ProbeResult = z.object({
  id: ScorecardProbeId,
  pass: z.boolean(),
  /** What the model did, quoted short; for a transport error, the error. Main's words, kept as sent. */
  evidence: z.string().max(600),
  ms: z.number().int().nonnegative(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;

/** Which endpoint a scorecard is of: the key it is saved under. */
export const ScorecardEndpoint = z.object({
  provider: z.string(),
  wire: z.enum(['openai', 'anthropic']),
  url: z.string(),
  model: z.string(),
});
export type ScorecardEndpoint = z.infer<typeof ScorecardEndpoint>;

export const Scorecard = z.object({
  endpoint: ScorecardEndpoint,
  /** ISO time the run finished. */
  ranAt: z.string(),
  passed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  results: z.array(ProbeResult),
});
export type Scorecard = z.infer<typeof Scorecard>;

/** Pushed after each probe, so the panel shows the run as it goes. */
export const ScorecardProgress = z.object({
  endpoint: ScorecardEndpoint,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  result: ProbeResult,
});
export type ScorecardProgress = z.infer<typeof ScorecardProgress>;

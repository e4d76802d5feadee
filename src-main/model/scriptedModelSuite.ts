/**
 * For tests: the scripted model server for the describe block that calls this, as
 * `scriptedServerSuite` gives it (started before the block's tests, closed after, with
 * `resetEachTest` cleared before each); with `capabilities` a fresh in-memory capability store
 * is also handed over before each test (ahead of the block's own `beforeEach` hooks registered
 * later). `turnOf` runs a client's turn and keeps what it streamed.
 */
import { beforeEach } from 'node:test';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { scriptedServerSuite } from '../../e2e/model-server/testing/scriptedServerSuite.js';
import { type CapabilityStore, memoryCapabilityStore } from './endpointCapabilities.js';
import type { ModelClient, TurnRequest } from './modelClient.js';

export function scriptedModelSuite(
  started: (server: ScriptedModelServer) => void,
  opts: { resetEachTest?: boolean; capabilities?: (store: CapabilityStore & { readonly size: number }) => void } = {},
): void {
  scriptedServerSuite(started, opts);
  const { capabilities } = opts;
  if (capabilities) beforeEach(() => capabilities(memoryCapabilityStore()));
}

/** One turn of `client`, with the text and reasoning deltas it streamed on the way. */
export async function turnOf(client: ModelClient, request: TurnRequest, signal = new AbortController().signal) {
  const text: string[] = [];
  const reasoning: string[] = [];
  const turn = await client.streamTurn(request, { signal, onTextDelta: (d) => text.push(d), onReasoningDelta: (d) => reasoning.push(d) });
  return { turn, text, reasoning };
}

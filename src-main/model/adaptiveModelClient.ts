import { randomUUID } from 'node:crypto';
import { UNKNOWN_CAPABILITIES, endpointHash, type CapabilityStore, type EndpointCapabilities } from './endpointCapabilities.js';
import { createJsonCallHoldback, parseJsonToolCalls, toJsonProtocolRequest } from './jsonToolProtocol.js';
import { HttpModelError, ModelError, type ModelClient, type ModelTurn, type StreamCallbacks, type TurnRequest } from './modelClient.js';
import { refusalOf, type Refusal } from './refusals.js';
import { DEFAULT_RETRY, retryDelayMs, sleep as abortableSleep, stoppedError, type RetryPolicy } from './retryPolicy.js';
import { createThinkTagSplitter } from './thinkTagSplitter.js';
import type { WireAttempt, WireResult, WireSink, WireTransport } from './wireTransport.js';

/**
 * The client the agent loop gets: one wire transport plus the rules of DESIGN §5 —
 * native tools first and the JSON protocol after a refusal, streaming first and a plain
 * request after a refusal (each refusal remembered per endpoint hash), outages raised as
 * what they are after a bounded, Retry-After-honouring backoff, and reasoning cut out of
 * the answer in whichever shape it comes.
 */
export interface AdaptiveModelClient extends ModelClient {
  readonly identity: string;
  /** The endpoint hash the capabilities are remembered under. */
  readonly endpoint: string;
  readonly wire: WireTransport['wire'];
  capabilities(): EndpointCapabilities;
  /** Forget what was learnt, so the next turn detects again (the panel's "test connection"). */
  forgetCapabilities(): void;
  listModels(signal: AbortSignal): Promise<string[]>;
}

/** What happened on the way to a turn, for the connection test's report. */
export type AdaptiveEvent =
  | { kind: 'refused'; feature: Refusal; status: number; message: string }
  | { kind: 'retrying'; status: number | null; delayMs: number; retry: number };

export interface AdaptiveClientOptions {
  transport: WireTransport;
  capabilities: CapabilityStore;
  retry?: RetryPolicy;
  /** Part of the identity beyond endpoint and model (the thinking budget). */
  identityExtra?: string;
  onEvent?: (event: AdaptiveEvent) => void;
  /** Tests shorten waits through this. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Refusals, retries and a flip of the reasoning rule, together, can never need more. */
const MAX_ATTEMPTS = 12;

export function createAdaptiveModelClient(options: AdaptiveClientOptions): AdaptiveModelClient {
  const { transport, capabilities: store } = options;
  const endpoint = endpointHash(transport.wire, transport.baseUrl, transport.model);
  const policy = options.retry ?? DEFAULT_RETRY;
  const sleep = options.sleep ?? abortableSleep;
  const current = (): EndpointCapabilities => ({ ...UNKNOWN_CAPABILITIES, ...store.get(endpoint) });
  const remember = (before: EndpointCapabilities, after: EndpointCapabilities) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) store.set(endpoint, after);
  };

  return {
    model: transport.model,
    identity: `${endpoint}${options.identityExtra ? `|${options.identityExtra}` : ''}`,
    endpoint,
    wire: transport.wire,
    capabilities: current,
    forgetCapabilities: () => store.forget(endpoint),
    listModels: (signal) => transport.listModels(signal),

    async streamTurn(request: TurnRequest, callbacks: StreamCallbacks): Promise<ModelTurn> {
      const { signal } = callbacks;
      let retries = 0;
      for (let attempt = 1; ; attempt++) {
        if (signal.aborted) throw stoppedError();
        const caps = current();
        const json = caps.tools === 'refused' && request.tools.length > 0;
        const wire: WireAttempt = {
          stream: caps.streaming !== 'refused',
          streamUsage: caps.streamUsage !== 'refused',
          replayReasoning: caps.reasoningReplay,
        };
        const pipeline = createTurnPipeline(callbacks, json);
        try {
          const result = await transport.send(json ? toJsonProtocolRequest(request) : request, wire, pipeline.sink, signal);
          const turn = pipeline.finish(result, json ? request.tools.map((t) => t.name) : null);
          remember(caps, learnt(caps, result, wire, !json && request.tools.length > 0, pipeline.sawTags));
          return turn;
        } catch (error) {
          if (signal.aborted) throw stoppedError();
          // Anything but a ModelError is a bug of the caller (a throwing callback): as itself.
          if (!(error instanceof ModelError) || pipeline.emitted || attempt >= MAX_ATTEMPTS) throw error;
          if (error instanceof HttpModelError) {
            const refusal = refusalOf(error, {
              tools: !json && request.tools.length > 0,
              stream: wire.stream,
              streamUsage: wire.stream && wire.streamUsage,
              reasoningReplay: wire.replayReasoning,
            });
            if (refusal) {
              remember(caps, withRefusal(caps, refusal));
              options.onEvent?.({ kind: 'refused', feature: refusal, status: error.status ?? 0, message: error.message });
              continue;
            }
          }
          const delay = retryDelayMs(error, retries + 1, policy);
          if (delay === null) throw error;
          retries += 1;
          options.onEvent?.({ kind: 'retrying', status: error.status, delayMs: delay, retry: retries });
          await sleep(delay, signal);
        }
      }
    },
  };
}

function withRefusal(caps: EndpointCapabilities, refusal: Refusal): EndpointCapabilities {
  switch (refusal) {
    case 'tools':
      return { ...caps, tools: 'refused' };
    case 'stream':
      return { ...caps, streaming: 'refused' };
    case 'stream-usage':
      return { ...caps, streamUsage: 'refused' };
    case 'reasoning-replay':
      return { ...caps, reasoningReplay: true };
    case 'reasoning-replay-refused':
      return { ...caps, reasoningReplay: false };
  }
}

function learnt(
  caps: EndpointCapabilities,
  result: WireResult,
  wire: WireAttempt,
  sentTools: boolean,
  sawTags: boolean,
): EndpointCapabilities {
  const next = { ...caps };
  if (wire.stream) {
    // Answering one JSON body to a stream request is a refusal, not an empty answer.
    next.streaming = result.streamIgnored ? 'refused' : 'ok';
    if (!result.streamIgnored && wire.streamUsage) next.streamUsage = 'ok';
  }
  if (sentTools) next.tools = 'native';
  const shape = result.reasoningShape !== 'none' ? result.reasoningShape : sawTags ? 'think-tags' : null;
  if (shape) next.reasoning = shape;
  else if (next.reasoning === 'unknown') next.reasoning = 'none';
  return next;
}

interface TurnPipeline {
  sink: WireSink;
  /** Whether anything reached the person: after that a retry would repeat it. */
  readonly emitted: boolean;
  readonly sawTags: boolean;
  finish(result: WireResult, jsonTools: string[] | null): ModelTurn;
}

/**
 * Content on its way to the chat: `<think>` cut out first, then (under the JSON protocol)
 * call objects held back so the person reads prose, not JSON.
 */
function createTurnPipeline(callbacks: StreamCallbacks, json: boolean): TurnPipeline {
  const splitter = createThinkTagSplitter();
  const holdback = json ? createJsonCallHoldback() : null;
  let emitted = false;
  const text = (delta: string) => {
    const shown = holdback ? holdback.feed(delta) : delta;
    if (shown === '') return;
    emitted = true;
    callbacks.onTextDelta(shown);
  };
  const reasoning = (delta: string) => {
    if (delta === '') return;
    emitted = true;
    callbacks.onReasoningDelta?.(delta);
  };
  const route = (parts: { kind: 'text' | 'reasoning'; text: string }[]) => {
    for (const part of parts) (part.kind === 'text' ? text : reasoning)(part.text);
  };

  return {
    sink: { content: (delta) => route(splitter.feed(delta)), reasoning },
    get emitted() {
      return emitted;
    },
    get sawTags() {
      return splitter.sawTags;
    },
    finish(result, jsonTools) {
      route(splitter.end());
      const reasoningText = `${result.turn.reasoning ?? ''}${splitter.reasoning}`;
      let answer = splitter.visible;
      let toolCalls = result.turn.toolCalls;
      let stopReason = result.turn.stopReason;
      if (jsonTools && holdback) {
        const parsed = parseJsonToolCalls(answer, jsonTools);
        answer = parsed.text;
        toolCalls = [...toolCalls, ...parsed.calls.map((call) => ({ id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`, ...call }))];
        if (parsed.calls.length > 0) stopReason = 'tool_calls';
        // Prose that was held back behind a brace that turned out not to be a call.
        const shown = holdback.shown.trimEnd();
        if (answer.startsWith(shown) && answer.length > shown.length) {
          const tail = answer.slice(shown.length);
          emitted = true;
          callbacks.onTextDelta(tail);
        }
      }
      const turn: ModelTurn = { text: answer, toolCalls, stopReason, usage: result.turn.usage };
      if (reasoningText !== '') turn.reasoning = reasoningText;
      if (result.turn.thinking && result.turn.thinking.length > 0) turn.thinking = result.turn.thinking;
      return turn;
    },
  };
}

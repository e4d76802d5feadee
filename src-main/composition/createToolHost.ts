import { randomUUID } from 'node:crypto';
import type { Emit } from '../../src-shared/bridge/contract.js';
import { defaultRasterStyle, defaultVectorStyle } from '../../src-shared/style/styleModel.js';
import { defaultLayerName, parseSource } from '../../src-shared/domain/source.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { CommandDefinition, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import type { EgressGate } from '../net/egressGate.js';
import type { PrivatePaths } from '../security/privatePaths.js';
import type { ProjectStore } from '../store/projectStore.js';
import { ApprovalBroker } from '../tool-host/approvalBroker.js';
import { buildCommands, undoState } from '../tool-host/commands.js';
import { PolicyStateStore } from '../tool-host/policyState.js';
import { RendererQueries } from '../tool-host/rendererQueries.js';
import { ToolDispatcher } from '../tool-host/toolDispatcher.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createGdalHandle } from './gdalHandle.js';
import { createMapHandle } from './mapHandle.js';
import { createProjectHandle } from './projectHandle.js';

export interface ToolHostDeps {
  store: ProjectStore;
  worker: GisWorkerClient;
  emit: Emit;
  privatePaths: PrivatePaths;
  egress: Pick<EgressGate, 'openFor' | 'recent'>;
  /** Late-bound: the agent runner is built after the tool host. */
  runIsLive(): boolean;
  send(text: string): void;
  /** Tools built at start-up from other services (`skills_load_skill` over the skill catalogue). */
  extraTools?: readonly ToolDefinition[];
}

/**
 * The tool layer, assembled: registry, handles, approvals, policy, dispatcher, commands, and
 * the one GUI entry point `trigger` (a Command, or else a Tool of that name, as the user).
 */
export function createToolHost(d: ToolHostDeps) {
  const { store, emit } = d;
  const approvals = new ApprovalBroker(
    (request) => emit('approval/requested', request),
    (approvalId, decision) => {
      emit('approval/resolved', { approvalId, decision: decision.decision });
      policy.announce();
    },
  );
  const policy = new PolicyStateStore(store.settings, approvals, emit);
  const registry = new ToolRegistry([...builtInTools, ...(d.extraTools ?? [])]);
  const queries = new RendererQueries(emit);
  const project = createProjectHandle(store, emit);
  const gdal = createGdalHandle(d.worker);
  const handles = { project, gdal, map: createMapHandle(emit, queries, project) };
  const announceUndo = () => emit('undo/changed', undoState(store));

  const dispatcher = new ToolDispatcher(registry, handles, approvals, {
    policy: () => policy.get(),
    audit: (entry) => store.audit.add(entry),
    snapshot: (info) => {
      store.snapshots.take(info);
      announceUndo();
    },
    privatePaths: d.privatePaths,
    openEgress: (origins) => d.egress.openFor(origins),
    egressRefusedSince: (since) => d.egress.recent(since).filter((e) => !e.allowed).map((e) => e.origin),
    loadProduced: async ({ path, name }) => {
      const info = await gdal.describe(path);
      const ref = parseSource(path);
      const index = project.listLayers().length;
      const layer = project.addLayer({
        name: name ?? defaultLayerName(ref),
        source: ref.path,
        sublayer: ref.sublayer,
        info,
        style: info.kind === 'raster' ? defaultRasterStyle() : defaultVectorStyle(index),
      });
      return layer.name;
    },
  });

  const commands = new Map<string, CommandDefinition>(
    buildCommands({
      store,
      policy,
      runIsLive: d.runIsLive,
      send: d.send,
      layersChanged: () => emit('layers/changed', { layers: store.layers.list() }),
      undoChanged: announceUndo,
      note: (text) => emit('message/upserted', store.conversations.upsert(store.conversationId, { id: randomUUID(), role: 'notice', text, level: 'info' })),
    }).map((c) => [c.id, c]),
  );

  /** The GUI's one way in. There is no channel that runs arbitrary text. */
  async function trigger(entry: string, params: Record<string, unknown>): Promise<ToolResult> {
    const command = commands.get(entry);
    if (command) {
      const parsed = command.input.safeParse(params);
      if (!parsed.success) return toolError('invalid_params', `Invalid parameters for ${entry}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, false);
      try {
        const data = await command.run(parsed.data);
        store.audit.add({ conversationId: store.conversationId, runId: null, caller: 'user', toolId: entry, toolVersion: null, definitionHash: null, args: parsed.data, decision: 'user_action', decidedBy: 'user', outcome: 'ok', errorCode: null, durationMs: null });
        return { ok: true, data };
      } catch (err) {
        const e = err as { code?: string; message?: string; retryable?: boolean };
        const result = toolError(e.code === 'not_allowed' ? 'not_allowed' : 'handler_error', e.message ?? String(err), e.retryable ?? false);
        store.audit.add({ conversationId: store.conversationId, runId: null, caller: 'user', toolId: entry, toolVersion: null, definitionHash: null, args: parsed.data, decision: 'user_action', decidedBy: 'user', outcome: 'error', errorCode: result.ok ? null : result.error.code, durationMs: null });
        return result;
      }
    }
    // The renderer is trusted less than main: only tools the GUI shows, with the fields it uses.
    const tool = registry.find(entry);
    if (!tool || tool.def.userVisible !== true) return toolError('not_allowed', `'${entry}' is not an action the interface can run.`, false);
    const shape = (tool.def.input as { shape?: Record<string, unknown> }).shape ?? {};
    const unknown = Object.keys(params).filter((k) => !(k in shape));
    if (unknown.length) return toolError('invalid_params', `Unknown parameters for ${entry}: ${unknown.join(', ')}`, false);
    const outcome = await dispatcher.dispatch({
      name: entry,
      rawArgs: params,
      caller: 'user',
      callId: `user-${randomUUID()}`,
      runId: null,
      conversationId: store.conversationId,
      signal: new AbortController().signal,
    });
    return outcome.result;
  }

  /**
   * Runs a tool as the person with input they gave to main itself (Electron's native open
   * dialog; tests): the same dispatcher, without the renderer's limits.
   */
  async function runForPerson(entry: string, params: Record<string, unknown>): Promise<ToolResult> {
    const outcome = await dispatcher.dispatch({
      name: entry,
      rawArgs: params,
      caller: 'user',
      trustedInput: true,
      callId: `user-${randomUUID()}`,
      runId: null,
      conversationId: store.conversationId,
      signal: new AbortController().signal,
    });
    return outcome.result;
  }

  return { registry, dispatcher, approvals, policy, queries, trigger, runForPerson, undoState: () => undoState(store) };
}

export type ToolHost = ReturnType<typeof createToolHost>;

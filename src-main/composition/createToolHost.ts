import { randomUUID } from 'node:crypto';
import type { Emit } from '../../src-shared/bridge/contract.js';
import { defaultLayerName, parseSource } from '../../src-shared/domain/source.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { MemoryHandle } from '../../src-shared/tools/handles.js';
import type { CommandDefinition, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import type { EgressGate } from '../net/egressGate.js';
import type { PrivatePaths } from '../security/privatePaths.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import type { ProjectStore } from '../store/projectStore.js';
import { createLineageStamper } from '../lineage/lineageStamper.js';
import { buildQaReport } from '../qa/buildQaReport.js';
import { ApprovalBroker } from '../tool-host/approvalBroker.js';
import { buildCommands, undoState } from '../tool-host/commands.js';
import { PolicyStateStore } from '../tool-host/policyState.js';
import { RendererQueries } from '../tool-host/rendererQueries.js';
import { ToolDispatcher } from '../tool-host/toolDispatcher.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { buildRecipeCommands } from '../recipes/recipeCommands.js';
import { recipesDirOf } from '../recipes/recipeFiles.js';
import { outputsDirOf } from '../store/projectStore.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import type { PgConnectionStore } from '../postgis/pgConnectionStore.js';
import { createPostgisHandle } from '../postgis/postgisHandle.js';
import { pgOrigin } from '../postgis/pgOrigin.js';
import { createMemoryHandle } from '../memory/memoryHandle.js';
import { createGdalHandle } from './gdalHandle.js';
import { createMapHandle } from './mapHandle.js';
import { createProjectHandle } from './projectHandle.js';
import { layersChangedPayload } from './projectHandlers.js';

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
  /** The plugin versions a conversation is pinned to (read only here: a turn request pins them). */
  pinsFor?(conversationId: string | null): ReadonlyMap<string, string>;
  /** Told of every audited call after it is written (recent files follow `layers.load`, issue #15). */
  audited?(entry: NewAuditEntry): void;
  /**
   * The saved PostGIS connections (issue 16), for the `postgis` handle and the source check of
   * `postgis://<id>` (late-bound: the app settings open after the tool host).
   */
  postgisConnections?(): PgConnectionStore;
  /** The person's memories (issue 17, memory/memoryHandle.ts); none: memory tools fail as not available. */
  memory?: MemoryHandle;
  /** The app's version, recorded in every output's lineage (issue 17). */
  appVersion?: string;
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
    { has: (toolId, hash) => store.pluginChoices.hasGrant(toolId, hash), add: (toolId, hash) => store.pluginChoices.grant(toolId, hash) },
  );
  const policy = new PolicyStateStore(store.settings, approvals, emit);
  const registry = new ToolRegistry([...builtInTools, ...(d.extraTools ?? [])]);
  const queries = new RendererQueries(emit);
  const project = createProjectHandle(store, emit);
  const gdal = createGdalHandle(d.worker);
  const connections = () => d.postgisConnections?.() ?? null;
  const memory = d.memory ?? createMemoryHandle({ repo: () => null, project: () => store.info.path, changed: () => undefined });
  const handles = { project, gdal, map: createMapHandle(queries, project), postgis: createPostgisHandle(connections, { gdal }), memory };
  const announceUndo = () => emit('undo/changed', undoState(store));

  const dispatcher = new ToolDispatcher(registry, handles, approvals, {
    policy: () => policy.get(),
    audit: (entry) => {
      store.audit.add(entry);
      d.audited?.(entry);
    },
    snapshot: (info) => {
      const id = store.snapshots.take(info);
      announceUndo();
      return id;
    },
    readableSummary: (summary) => namesForLayerIds(summary, store.layers.list()),
    discardSnapshot: (id) => {
      if (store.snapshots.discardIfUnchanged(id)) announceUndo();
    },
    privatePaths: {
      isPrivate: (path) => d.privatePaths.isPrivate(path),
      mentionedIn: (text) => d.privatePaths.mentionedIn(text),
      databaseOrigin: (id) => {
        const spec = connections()?.get(id);
        return spec ? pgOrigin(spec) : null;
      },
    },
    openEgress: (origins) => d.egress.openFor(origins),
    ...(d.pinsFor ? { pinsFor: d.pinsFor } : {}),
    // Issue #13: map-source origins the person approved for this project (webSourceTools.ts).
    grantedOrigins: () => new Set(store.networkOrigins.list()),
    rememberOrigins: (origins) => {
      for (const origin of origins) store.networkOrigins.grant(origin);
    },
    egressRefusedSince: (since) =>
      d.egress
        .recent(since)
        .filter((e) => !e.allowed)
        .map((e) => e.origin),
    // Issue 17: each output in the outputs folder records what made it (src-main/lineage/).
    stampLineage: createLineageStamper({
      project,
      outputsDir: () => outputsDirOf(store.info.path),
      write: (params, signal) => d.worker.call('lineage.write', params, { signal }),
      appVersion: d.appVersion ?? 'unknown',
      warn: (message) => console.warn(message),
    }),
    // The tool's own description of what it wrote spares a second look at the file.
    loadProduced: async ({ path, name, info }) => {
      const ref = parseSource(path);
      const layer = project.addLayer({
        name: name ?? defaultLayerName(ref),
        source: ref.path,
        sublayer: ref.sublayer,
        info: info ?? (await gdal.call('layers.describe', { source: path })),
      });
      return layer.name;
    },
    // Issue 17: counts, invalid geometries, CRS and units, extent, nodata (src-main/qa/); never throws.
    qaReport: (produced) => buildQaReport({ project, gdal }, produced),
  });

  const commands = new Map<string, CommandDefinition>(
    buildCommands({
      store,
      policy,
      undoData: async (source, txs) => (await d.worker.call('edit.undo', { source, txs })).info,
      runIsLive: d.runIsLive,
      send: d.send,
      // Undo and Revert restore the annotations with the layers (snapshotRepo.ts): both are re-sent.
      layersChanged: () => {
        emit('layers/changed', layersChangedPayload(store));
        emit('annotations/changed', { annotations: store.annotations.list() });
      },
      undoChanged: announceUndo,
      note: (text) =>
        emit(
          'message/upserted',
          store.conversations.upsert(store.conversationId, { id: randomUUID(), role: 'notice', text, level: 'info' }),
        ),
    })
      .concat(
        // Issue 17: recipes. Each replayed step passes this dispatcher, asking as any change does.
        buildRecipeCommands({
          store,
          registry,
          recipesDir: () => recipesDirOf(outputsDirOf(store.info.path)),
          runIsLive: d.runIsLive,
          dispatchStep: (call, ctx) =>
            dispatcher.dispatch({
              name: call.tool,
              rawArgs: call.args,
              caller: 'user',
              recipeStep: { label: call.label, ...(call.note ? { note: call.note } : {}) },
              callId: `recipe-${randomUUID()}`,
              runId: ctx.runId,
              conversationId: store.conversationId,
              signal: ctx.signal,
              onProgress: ctx.onProgress,
            }),
          progress: (p) => emit('recipes/progressed', p),
          note: (text, level) =>
            emit('message/upserted', store.conversations.upsert(store.conversationId, { id: randomUUID(), role: 'notice', text, level })),
        }),
      )
      .map((c) => [c.id, c]),
  );

  /** The GUI's one way in. There is no channel that runs arbitrary text. */
  async function trigger(entry: string, params: Record<string, unknown>): Promise<ToolResult> {
    const command = commands.get(entry);
    if (command) return (await dispatcher.runCommand({ command, rawArgs: params, conversationId: store.conversationId })).result;
    // The renderer is trusted less than main: only tools the GUI shows, with the fields it uses.
    const tool = registry.find(entry);
    if (!tool || tool.def.userVisible !== true)
      return toolError('not_allowed', `'${entry}' is not an action the interface can run.`, false);
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

/** `summary` with each layer id it contains replaced by the layer's name (ids are UUIDs: no false hits). */
export function namesForLayerIds(summary: string, layers: readonly { id: string; name: string }[]): string {
  let out = summary;
  for (const l of layers) if (out.includes(l.id)) out = out.split(l.id).join(l.name);
  return out;
}

import { dirname, join } from 'node:path';
import { methods, type Emit, type MethodHandlers } from '../../src-shared/bridge/contract.js';
import { METHOD_NAMES, type MethodName } from '../../src-shared/bridge/names.js';
import { AgentRunner } from '../agent/agentRunner.js';
import { createModelLayer } from '../settings/modelLayer.js';
import { allowedOriginsFromEnv, EgressGate } from '../net/egressGate.js';
import { PrivatePaths } from '../security/privatePaths.js';
import { defaultProjectPath, outputsDirOf, ProjectStore } from '../store/projectStore.js';
import { createProjectHandlers, missingLayerIds } from './projectHandlers.js';
import { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { makeWorkerSpawn } from '../worker-host/workerSpawn.js';
import { createLoadSkillTool } from '../../tools/skills/loadSkill.js';
import { createConversationLayer, createSkillCatalogue } from './conversationLayer.js';
import { createDataRoutes } from './dataRoutes.js';
import { createOnlineBasemapRoute } from '../web/mapSourceBasemap.js';
import { TileCache } from './tileCache.js';
import { composedTools } from './composedTools.js';
import { createToolHost } from './createToolHost.js';
import { createAttributeHandlers } from './attributeHandlers.js';
import { createFileHandlers } from '../files/fileHandlers.js';
import type { Services, ServicesOptions } from './services.js';
import { unpackedPath } from '../paths/unpackedPath.js';
import { PluginChoices } from '../plugins/pluginChoices.js';
import { PluginHost } from '../plugins/pluginHost.js';
import { pinCurrentVersions } from '../plugins/pluginPins.js';
import { startMcpEndpoints, type McpServing } from '../mcp-server/mcpEndpoints.js';
import { ToolListWatch } from '../mcp-server/toolListWatch.js';
import { createPostgisServices } from '../postgis/postgisServices.js';
import { listRecipes, recipesDirOf } from '../recipes/recipeFiles.js';
import { createMemoryHandle } from '../memory/memoryHandle.js';

const VERSION = '0.1.0';

/** The composition root: every main-process service, wired once, whatever the host. */
export async function createServices(options: ServicesOptions): Promise<Services & { mcp: McpServing }> {
  const openOptions = options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {};
  const store = ProjectStore.open(options.projectPath ?? defaultProjectPath(options.home), openOptions);
  // The capability boundary below the tools: the app's own files, and GDAL's one way out.
  const privatePaths = PrivatePaths.forProject({
    home: options.home,
    projectPath: store.info.path,
    outputsDir: outputsDirOf(store.info.path),
  });
  const allowedOrigins = options.allowedOrigins ?? allowedOriginsFromEnv(process.env);
  const egress = await EgressGate.start({ allowedOrigins });
  const worker = new GisWorkerClient(options.launchWorker, {
    spawn: makeWorkerSpawn({ egressEnv: egress.workerEnv(), privatePaths: privatePaths.toJSON(), cacheDir: join(options.home, 'cache') }),
  });

  worker.warmUp();

  const listeners = new Set<Emit>();
  const emit: Emit = (name, payload) => {
    for (const listener of listeners) listener(name, payload);
  };

  let runner: AgentRunner | null = null;
  // Built-in skills ship beside assets/ (electron.config.ts packs both).
  const skills = createSkillCatalogue({
    home: options.home,
    projectPath: store.info.path,
    builtInDir: join(options.assetsDir, '..', 'skills'),
  });
  // Memory (issue 17): the person's notes, in the app settings file opened with the model layer below.
  const memory = createMemoryHandle({
    repo: () => models.memories,
    project: () => store.info.path,
    changed: (memories) => emit('memory/changed', { memories }),
  });
  const tools = createToolHost({
    store,
    worker,
    emit,
    privatePaths,
    egress,
    appVersion: VERSION,
    runIsLive: () => runner?.state().status !== 'idle' && runner?.state().status !== undefined,
    send: (text) => void runner?.send(text),
    extraTools: [
      createLoadSkillTool(skills),
      ...composedTools({
        home: options.home,
        store,
        outputsDir: () => outputsDirOf(store.info.path),
        privatePaths,
        egress,
        allowedOrigins,
        worker,
        distMainDir: unpackedPath(join(options.assetsDir, '..', 'dist', 'main')),
        ...(options.pluginRuntime ? { runtime: options.pluginRuntime } : {}),
      }),
    ],
    pinsFor: (conversationId) => (conversationId ? store.pluginPins.of(conversationId) : new Map()),
    // Late-bound: the recent files live in the app settings file, opened with the model layer below.
    audited: (entry) => files.noteAudited(entry),
    postgisConnections: () => models.postgis,
    memory,
  });
  // Plugins become tools of the same registry, hot; the person's private files stay hidden
  // from their commands (the sandbox masks them), the outputs and the sources stay readable.
  // Outside MCP clients are told when the tools offered change (a plugin came, went, changed).
  const toolsChanged = new ToolListWatch(() =>
    tools.registry
      .forModel()
      .map((t) => `${t.wireName}#${t.definitionHash}`)
      .join('\n'),
  );
  const pluginChoices = new PluginChoices(store.pluginChoices);
  const plugins = new PluginHost({
    choices: pluginChoices,
    // Module plugins run in the built plugin host, started by Node (or Electron as Node).
    runtime: { hostEntry: unpackedPath(join(options.assetsDir, '..', 'dist', 'main', 'plugin-host.mjs')), ...options.pluginRuntime },
    home: options.home,
    projectPath: store.info.path,
    builtInDir: join(options.assetsDir, '..', 'plugins'),
    registry: tools.registry,
    tools: {
      outputsDir: () => outputsDirOf(store.info.path),
      hidePaths: () => privatePaths.toJSON().roots,
      readPaths: () => [outputsDirOf(store.info.path), ...new Set(store.layers.list().map((l) => dirname(l.source)))],
      // http and grpc plugins pass the same SSRF guard, with the person's non-public origins.
      egress: { allowedOrigins },
    },
    changed: (list, current) => {
      emit('plugins/changed', { plugins: list });
      toolsChanged.check();
      // A plugin's skills (bound to its tools) load with the version new conversations get.
      skills.setExtraRoots(
        list
          .filter((p) => p.state === 'available' && current.get(p.namespace) === p.version)
          .map((p) => ({ dir: join(p.dir, 'skills'), origin: p.origin })),
      );
    },
  });
  pluginChoices.onChange(() => plugins.choicesChanged());
  void plugins.watch().catch((err: unknown) => console.error('[plugins] watching failed:', err));
  const conversations = createConversationLayer({
    store,
    emit,
    registry: tools.registry,
    skills,
    runState: () => runner?.state() ?? { runId: null, status: 'idle' },
    pins: (conversationId) => pinCurrentVersions(store.pluginPins, conversationId, plugins.currentVersions()),
    askView: (signal) => (listeners.size > 0 ? tools.queries.ask('current_view', signal) : Promise.resolve(null)),
    // The language chosen in Settings (issue 15); `models` exists by the time a request asks.
    uiLanguage: () => models.display.get().language,
    memories: () => memory.list(),
  });
  // The model can change in Settings while the app runs: each run asks for the current client.
  const models = createModelLayer({
    home: options.home,
    emit,
    secrets: options.secretStore,
    sqliteNativeBinding: options.sqliteNativeBinding,
  });
  // PostgreSQL/PostGIS (issue 16): the panel's bridge methods (the person's own actions, not
  // asked for), server tiles, and the worker told the saved connections.
  const postgis = createPostgisServices({
    connections: models.postgis,
    worker,
    passwordStore: models.secretsNote,
    runForPerson: (entry, params) => tools.runForPerson(entry, params),
    grantOrigin: (origin) => store.networkOrigins.grant(origin),
  });
  // The project opened becomes the most recent: the next start opens it again.
  models.recentProjects.add(store.info.path);
  // Adding data without the chat (issue #15): folder browser, recent files, open dialog, drops.
  const files = createFileHandlers({
    isPrivate: (path) => privatePaths.isPrivate(path),
    recent: models.recentFiles,
    runForPerson: (entry, params) => tools.runForPerson(entry, params),
    outputsDir: () => outputsDirOf(store.info.path),
    ...(options.chooseFiles ? { chooseFiles: options.chooseFiles } : {}),
  });
  runner = new AgentRunner({
    store,
    registry: tools.registry,
    dispatcher: tools.dispatcher,
    mode: () => tools.policy.get().mode,
    get model() {
      return models.provider.current();
    },
    get modelHelp() {
      return models.provider.status().help ?? '';
    },
    emit: conversations.runnerEmit,
    turns: conversations.turns,
  });

  // Mapwright as an MCP server for outside clients: the same dispatcher, policy and audit. A
  // dialog needs a window: with none connected, a call that would ask is refused at once.
  tools.approvals.setPresence(() => listeners.size > 0);
  const mcp = await startMcpEndpoints({ home: options.home, host: { ...tools, onToolsChanged: (l) => toolsChanged.subscribe(l) } });

  const handlers: MethodHandlers = {
    'app/info': async () => ({
      version: VERSION,
      host: options.host,
      dataBase: options.dataBase,
      dataQuery: options.dataQuery,
      model: models.provider.status(),
    }),
    'project/get': async () => ({
      project: store.info,
      layers: store.layers.list(),
      conversationId: store.conversationId,
      messages: store.conversations.messages(store.conversationId),
      run: runner.state(),
      pendingApprovals: tools.approvals.list(),
      view: store.view(),
      missingLayerIds: missingLayerIds(store.layers.list()),
    }),
    'chat/send': async ({ text }) => runner.send(text),
    'run/stop': async () => ({ stopped: runner.stop() }),
    'tools/decide': async ({ approvalId, decision, remember }) => ({ accepted: tools.approvals.decide(approvalId, decision, remember) }),
    'entries/trigger': async ({ entry, params }) => tools.trigger(entry, params),
    'renderer/answer': async ({ queryId, ok, value, error }) => ({ accepted: tools.queries.answer(queryId, ok, value, error) }),
    'audit/list': async (filter) => ({ entries: store.audit.list(filter) }),
    'policy/get': async () => ({ policy: tools.policy.get(), undo: tools.undoState() }),
    ...conversations.handlers,
    ...models.handlers,
    ...createAttributeHandlers(store, worker, egress),
    ...files.handlers,
    ...createProjectHandlers({
      home: options.home,
      store,
      recent: models.recentProjects,
      openOptions,
      ...(options.switchProject ? { switchProject: options.switchProject } : {}),
    }),
    ...postgis.handlers,
    'plugins/list': async () => ({ plugins: plugins.list() }),
    'annotations/list': async () => ({ annotations: store.annotations.list() }),
    // Issue 17: the Run recipe dialog's list (file names only; recipes.run reads one by name).
    'recipes/list': async () => {
      const dir = recipesDirOf(outputsDirOf(store.info.path));
      return { recipes: listRecipes(dir), dir };
    },
    'memory/list': async () => ({ memories: memory.list() }),
    // The coordinate readout's CRS definitions (the renderer caches them): GDAL's PROJ database.
    'crs/definition': async ({ epsg }) => worker.call('crs.definition', { epsg }),
    'plugins/set-enabled': async ({ namespace, enabled }) => {
      if (!plugins.list().some((p) => p.namespace === namespace)) throw new Error(`No plugin '${namespace}' is installed`);
      pluginChoices.setEnabled(namespace, enabled);
      return { plugins: plugins.list() };
    },
    'plugins/mark-read-only': async ({ toolId, version, readOnly }) => {
      const tool = plugins
        .list()
        .find((p) => p.version === version && p.tools.some((t) => t.id === toolId))
        ?.tools.find((t) => t.id === toolId);
      if (!tool) throw new Error(`No tool '${toolId}' in any installed plugin version ${version}`);
      if (tool.executor !== 'mcp')
        throw new Error(`Only MCP tools can be marked read-only; '${toolId}' is a ${tool.executor ?? 'plugin'} tool`);
      pluginChoices.markReadOnly(toolId, version, readOnly);
      return { plugins: plugins.list() };
    },
  };

  let closed = false;
  return {
    handlers,
    mcp: { socketPath: mcp.socketPath, http: mcp.http },
    async invoke(method, params) {
      if (!(METHOD_NAMES as readonly string[]).includes(method)) throw new Error(`Unknown bridge method '${method}'`);
      const name = method as MethodName;
      const parsed = methods[name].params.safeParse(params ?? {});
      if (!parsed.success)
        throw new Error(
          `Invalid parameters for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      const handler = handlers[name] as (p: unknown) => Promise<unknown>;
      return methods[name].result.parse(await handler(parsed.data));
    },
    runForPerson: (entry, params) => tools.runForPerson(entry, params),
    importFile: (req) => files.importFile(req),
    // Rendered tiles outlive the process in <home>/cache/tiles (keyed by source identity and style).
    serveData: createDataRoutes(
      store,
      worker,
      options.assetsDir,
      egress,
      new TileCache({ dir: join(options.home, 'cache', 'tiles') }),
      // The online basemap (issue #13): off by default; MAPWRIGHT_ONLINE_BASEMAP_URL points it elsewhere (tests).
      createOnlineBasemapRoute({
        enabled: () => models.display.get().onlineBasemap,
        allowedOrigins,
        ...(process.env.MAPWRIGHT_ONLINE_BASEMAP_URL ? { template: process.env.MAPWRIGHT_ONLINE_BASEMAP_URL } : {}),
      }),
      postgis.serverTiles,
    ),
    connect(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        // Nobody is left to answer a dialog: a reload or a closed window counts as a rejection.
        if (listeners.size === 0) tools.approvals.rejectAll('the window was closed or reloaded');
      };
    },
    async close() {
      // Idempotent: hosts and tests may both close on the way out.
      if (closed) return;
      closed = true;
      runner.stop();
      await mcp.close();
      tools.approvals.rejectAll('the app is closing');
      await conversations.close();
      await plugins.close();
      postgis.close();
      worker.dispose();
      await egress.close();
      store.close();
      models.close();
    },
  };
}

import { methods, type Emit, type MethodHandlers } from '../../src-shared/bridge/contract.js';
import { METHOD_NAMES, type MethodName } from '../../src-shared/bridge/names.js';
import { builtInTools } from '../../tools/index.js';
import { AgentRunner } from '../agent/agentRunner.js';
import { readModelConfig } from '../model/modelConfig.js';
import { createOpenAiChatClient } from '../model/openaiChatClient.js';
import { ProjectStore } from '../store/projectStore.js';
import { ApprovalBroker } from '../tool-host/approvalBroker.js';
import { ToolDispatcher } from '../tool-host/toolDispatcher.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { createDataRoutes } from './dataRoutes.js';
import { createGdalHandle } from './gdalHandle.js';
import { createProjectHandle } from './projectHandle.js';
import type { Services, ServicesOptions } from './services.js';

const VERSION = '0.1.0';

/** The composition root: every main-process service, wired once, whatever the host. */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const store = ProjectStore.openInHome(options.home, options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {});
  const worker = new GisWorkerClient(options.launchWorker);

  const listeners = new Set<Emit>();
  const emit: Emit = (name, payload) => {
    for (const listener of listeners) listener(name, payload);
  };

  const approvals = new ApprovalBroker(
    (request) => emit('approval/requested', request),
    (approvalId, d) => emit('approval/resolved', { approvalId, decision: d.decision }),
  );
  const registry = new ToolRegistry(builtInTools);
  const handles = {
    project: createProjectHandle(store, emit),
    gdal: createGdalHandle(worker),
    map: { fitBounds: (bbox: [number, number, number, number]) => emit('map/fit-requested', { bbox }) },
  };
  const dispatcher = new ToolDispatcher(registry, handles, approvals);
  const modelConfig = readModelConfig();
  const model = modelConfig.ok ? createOpenAiChatClient(modelConfig.config) : null;
  const runner = new AgentRunner({
    store,
    registry,
    dispatcher,
    model,
    modelHelp: modelConfig.ok ? '' : modelConfig.help,
    emit,
  });

  const handlers: MethodHandlers = {
    'app/info': async () => ({
      version: VERSION,
      host: options.host,
      dataBase: options.dataBase,
      dataQuery: options.dataQuery,
      model: modelConfig.ok
        ? { configured: true, name: modelConfig.config.model, help: null }
        : { configured: false, name: null, help: modelConfig.help },
    }),
    'project/get': async () => ({
      project: store.info,
      layers: store.layers.list(),
      conversationId: store.conversationId,
      messages: store.conversations.messages(store.conversationId),
      run: runner.state(),
      pendingApprovals: approvals.list(),
    }),
    'chat/send': async ({ text }) => runner.send(text),
    'run/stop': async () => ({ stopped: runner.stop() }),
    'tools/decide': async ({ approvalId, decision, remember }) => ({ accepted: approvals.decide(approvalId, decision, remember) }),
    'entries/trigger': async ({ entry, params }) => {
      const outcome = await dispatcher.dispatch({
        name: entry,
        rawArgs: params,
        caller: 'user',
        callId: `user-${Date.now()}`,
        signal: new AbortController().signal,
      });
      return outcome.result;
    },
  };

  return {
    handlers,
    async invoke(method, params) {
      if (!(METHOD_NAMES as readonly string[]).includes(method)) throw new Error(`Unknown bridge method '${method}'`);
      const name = method as MethodName;
      const parsed = methods[name].params.safeParse(params ?? {});
      if (!parsed.success) throw new Error(`Invalid parameters for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      const handler = handlers[name] as (p: unknown) => Promise<unknown>;
      return methods[name].result.parse(await handler(parsed.data));
    },
    serveData: createDataRoutes(store, worker, options.assetsDir),
    connect(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        // Nobody is left to answer a dialog: a reload or a closed window counts as a rejection.
        if (listeners.size === 0) approvals.rejectAll('the window was closed or reloaded');
      };
    },
    async close() {
      runner.stop();
      approvals.rejectAll('the app is closing');
      worker.dispose();
      store.close();
    },
  };
}

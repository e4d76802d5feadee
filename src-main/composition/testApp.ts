/**
 * The whole main process minus a transport, for integration tests: services + the real GIS
 * worker (forked from source with tsx) + a scripted model, and a log of every pushed event.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import type { EventName } from '../../src-shared/bridge/names.js';
import type { ApprovalRequest, ChatMessage } from '../../src-shared/domain/chat.js';
import { forkLauncher } from '../worker-host/forkLauncher.js';
import { createServices } from './createServices.js';
import type { Services } from './services.js';

/**
 * Every app a test file starts is closed when the file ends, even after a failed assertion:
 * a GIS worker left running would keep the test process alive until the suite's time-out.
 */
const started = new Set<Services>();
after(async () => {
  for (const s of started) await s.close().catch(() => undefined);
});

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fixtures = resolve(root, '..', 'shared', 'fixtures', 'gis');
export const haveFixtures = existsSync(join(fixtures, 'nc.gpkg'));

/** What a test gives the composition root: the real worker forked from source, a fake data base. */
export function testServiceOptions(home: string) {
  return {
    home,
    host: 'web' as const,
    launchWorker: forkLauncher(join(root, 'src-main', 'gis-worker', 'workerMain.ts'), ['--import', 'tsx']),
    dataBase: 'http://test/',
    dataQuery: '',
    assetsDir: join(root, 'assets'),
  };
}

interface Seen {
  name: EventName;
  payload: unknown;
}

/** The whole main process, minus a transport: services + real worker + scripted model. */
export async function startApp(model: ScriptedModelServer | null, home = mkdtempSync(join(tmpdir(), 'mapwright-svc-'))) {
  if (model) {
    process.env.MAPWRIGHT_MODEL_URL = model.url;
    process.env.MAPWRIGHT_MODEL = 'scripted';
  } else {
    delete process.env.MAPWRIGHT_MODEL_URL;
    delete process.env.MAPWRIGHT_MODEL;
  }
  const services = await createServices(testServiceOptions(home));
  started.add(services);
  const events: Seen[] = [];
  const waiters: (() => void)[] = [];
  const disconnect = services.connect((name, payload) => {
    events.push({ name, payload });
    waiters.splice(0).forEach((w) => w());
  });
  async function waitFor<T>(pick: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = pick();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; events: ${events.map((e) => e.name).join(', ')}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }
  const approval = () =>
    waitFor(
      () =>
        events.find(
          (e) =>
            e.name === 'approval/requested' &&
            !events.some(
              (r) =>
                r.name === 'approval/resolved' && (r.payload as { approvalId: string }).approvalId === (e.payload as ApprovalRequest).id,
            ),
        )?.payload as ApprovalRequest | undefined,
      'an approval request',
    );
  const runFinished = (count: number) =>
    waitFor(
      () =>
        events.filter((e) => e.name === 'run/changed' && (e.payload as { status: string }).status === 'idle').length >= count
          ? true
          : undefined,
      `run ${count} to finish`,
    );
  return { services, events, approval, runFinished, disconnect, home, waitFor };
}

/** What a tool call came back with, as the conversation keeps it. */
export interface ScriptedCallResult<D = Record<string, unknown>> {
  ok: boolean;
  data?: D;
  error?: { code: string; message: string; hint?: string };
}

/**
 * The model asks for one tool call (then closes with a line of text); the person approves the
 * dialog when one is wanted (`approve: false`: none is expected). Returns the request the
 * dialog showed and the call's result from the conversation.
 */
export async function scriptedToolCall<D = Record<string, unknown>>(
  app: Awaited<ReturnType<typeof startApp>>,
  model: ScriptedModelServer,
  call: { name: string; arguments: Record<string, unknown> },
  opts: { approve?: boolean } = {},
): Promise<{ asked: ApprovalRequest | null; result: ScriptedCallResult<D> }> {
  const idle = () => app.events.filter((e) => e.name === 'run/changed' && (e.payload as { status: string }).status === 'idle').length;
  const runs = idle();
  model.reset();
  model.script([{ toolCalls: [call] }, { text: 'Done.' }]);
  await app.services.invoke('chat/send', { text: `call ${call.name}` });
  const asked = opts.approve === false ? null : await app.approval();
  if (asked) await app.services.invoke('tools/decide', { approvalId: asked.id, decision: 'approve' });
  await app.runFinished(runs + 1);
  const { messages } = (await app.services.invoke('project/get', {})) as { messages: ChatMessage[] };
  return { asked, result: messages.filter((m) => m.role === 'tool').at(-1)!.tool!.result as ScriptedCallResult<D> };
}

import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../model-server/scriptedModelServer.js';
import { BridgeSocket, type BridgeEvent } from '../support/bridgeSocket.js';
import { gisFixtures, startWebHost, type RunningHost } from '../support/webHost.js';

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping durability test: ${gisFixtures} is absent`);

interface Message {
  id: string;
  role: string;
  text: string;
  tool?: { status: string; callId: string };
  toolCalls?: { id: string }[];
}

/** What the person has seen of one message: its text (streamed or saved) and a card's status. */
interface Shown {
  role: string;
  text: string;
  toolStatus: string | null;
}

const FINAL = new Set(['ok', 'error', 'rejected']);
const sentence = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}.`).join(' ');

/** One scripted run: streamed text, a read call, load_skill, a write call with approval, a streamed answer. */
function script(round: number): ScriptStep[] {
  return [
    {
      text: `Round ${round}: ${sentence(25, 'Looking')}`,
      chunkSize: 6,
      delayMs: 8,
      toolCalls: [{ name: 'inspect_list_layers', arguments: {} }],
    },
    { text: 'Loading the layers skill.', delayMs: 8, toolCalls: [{ name: 'skills_load_skill', arguments: { name: 'layers' } }] },
    { toolCalls: [{ name: 'layers_load', arguments: { path: NC, name: `nc_${round}` } }] },
    { text: `Done with round ${round}. ${sentence(30, 'Summary')}`, chunkSize: 6, delayMs: 8 },
  ];
}

describe('durability: the host killed (SIGKILL) at many points of a run', { skip: !haveFixtures }, () => {
  let model: ScriptedModelServer;
  let home: string;
  let host: RunningHost | null = null;
  const env = () => ({ MAPWRIGHT_HOME: home, MAPWRIGHT_MODEL_URL: model.url, MAPWRIGHT_MODEL: 'scripted' });
  const dbFile = () => join(home, 'projects', 'untitled.mapwright');

  before(async () => {
    model = await startScriptedModelServer();
    home = mkdtempSync(join(tmpdir(), 'mapwright-durability-'));
  });
  after(async () => {
    await host?.stop();
    await model?.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** Connects like a window: answers map questions and approves every request after a pause. */
  async function connect(h: RunningHost): Promise<BridgeSocket> {
    const bridge = await BridgeSocket.connect(h.url);
    const react = (e: BridgeEvent) => {
      if (e.name === 'renderer/query-requested') {
        const { queryId } = e.payload as { queryId: string };
        void bridge
          .call('renderer/answer', {
            queryId,
            ok: true,
            value: { center: [-79, 35.5], zoom: 6, bounds: [-84, 33, -75, 37], bearing: 0, pitch: 0 },
          })
          .catch(() => {});
      }
      if (e.name === 'approval/requested') {
        const { id } = e.payload as { id: string };
        setTimeout(() => void bridge.call('tools/decide', { approvalId: id, decision: 'approve', remember: false }).catch(() => {}), 150);
      }
    };
    bridge.onEvent = react;
    return bridge;
  }

  /** Runs one round and kills the host when the person has seen `killAt` updates (or at the end). */
  async function roundKilledAt(round: number, killAt: number): Promise<{ shown: Map<string, Shown>; seen: number }> {
    host = await startWebHost(env());
    const bridge = await connect(host);
    const shown = new Map<string, Shown>();
    let seen = 0;
    let killed = false;
    const victim = host;
    const kill = () => {
      if (killed) return;
      killed = true;
      victim.process.kill('SIGKILL');
    };
    const finished = new Promise<void>((resolve) => {
      const react = bridge.onEvent;
      bridge.onEvent = (e) => {
        if (killed) return; // anything after the kill was never seen
        if (e.name === 'message/upserted') {
          const m = e.payload as Message;
          shown.set(m.id, { role: m.role, text: m.text, toolStatus: m.tool?.status ?? null });
          seen += 1;
        } else if (e.name === 'assistant/delta') {
          const { messageId, delta } = e.payload as { messageId: string; delta: string };
          const s = shown.get(messageId) ?? { role: 'assistant', text: '', toolStatus: null };
          shown.set(messageId, { ...s, text: s.text + delta });
          seen += 1;
        }
        if (seen >= killAt) {
          kill();
          resolve();
          return;
        }
        react(e);
        if (e.name === 'run/changed' && (e.payload as { status: string }).status === 'idle' && seen > 1) {
          kill(); // the run ended before the kill point: kill now, at rest
          resolve();
        }
      };
    });
    model.reset();
    model.script(script(round));
    // The kill may come before the answer to chat/send itself (at the first update).
    const sent = bridge.call('chat/send', { text: `round ${round}: load ${NC}` }).then(
      () => finished,
      (error: Error) => {
        if (!killed) throw error;
      },
    );
    await Promise.all([sent, finished]);
    await victim.kill().catch(() => {});
    bridge.close();
    host = null;
    return { shown, seen };
  }

  it('every message shown before the kill is there after a restart, and the file is intact', async () => {
    // Calibrate: how many updates does a whole round show?
    const full = await roundKilledAt(0, Number.POSITIVE_INFINITY);
    const total = full.seen;
    assert.ok(total > 20, `a round shows many updates (${total})`);
    const points = [1, 2, 3, ...Array.from({ length: 9 }, (_, i) => Math.round((total * (i + 1)) / 10))];

    let round = 1;
    for (const killAt of points) {
      const { shown } = await roundKilledAt(round, killAt);

      // The file as the kill left it: opening it recovers the WAL, as the app does.
      const db = new Database(dbFile());
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', `integrity after a kill at update ${killAt}`);
      db.close();

      host = await startWebHost(env());
      const bridge = await BridgeSocket.connect(host.url);
      const state = await bridge.call<{ messages: Message[] }>('project/get');
      const byId = new Map(state.messages.map((m) => [m.id, m]));
      for (const [id, s] of shown) {
        const saved = byId.get(id);
        assert.ok(saved, `round ${round}, kill at ${killAt}: shown ${s.role} message ${id} ("${s.text.slice(0, 40)}") is missing`);
        assert.equal(saved.role, s.role);
        if (s.role === 'assistant')
          assert.ok(
            saved.text.startsWith(s.text),
            `round ${round}: saved text holds all that was shown:\n${s.text}\n--- saved:\n${saved.text}`,
          );
        else assert.equal(saved.text, s.text);
        if (s.toolStatus && FINAL.has(s.toolStatus)) assert.equal(saved.tool?.status, s.toolStatus, 'a finished card keeps its outcome');
        if (s.toolStatus && !FINAL.has(s.toolStatus))
          assert.ok(saved.tool && FINAL.has(saved.tool.status), 'an interrupted card is settled on restart');
      }
      bridge.close();
      await host.stop();
      host = null;
      round += 1;
    }

    // The next run after all those kills gets a well-formed history: every call has its result.
    host = await startWebHost(env());
    const bridge = await connect(host);
    model.reset();
    model.script([{ text: 'All good.' }]);
    await bridge.call('chat/send', { text: 'are you there?' });
    const [request] = await model.waitForRequests(1, 20_000);
    const results = new Set(request!.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
    for (const m of request!.messages) for (const c of m.tool_calls ?? []) assert.ok(results.has(c.id), `call ${c.id} has a result`);
    bridge.close();
  });
});

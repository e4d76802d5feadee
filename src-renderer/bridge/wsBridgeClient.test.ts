import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionState } from './bridgeTypes.js';
import { createWsBridgeClient, wsUrlFromLocation, type WebSocketLike } from './wsBridgeClient.js';

class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: { id: number; method: string; params: unknown }[] = [];
  onopen: WebSocketLike['onopen'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const client = createWsBridgeClient({
    url: 'ws://h/bridge?token=t',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    initialDelayMs: 1,
    maxDelayMs: 2,
  });
  const states: [ConnectionState, boolean][] = [];
  client.onConnection((state, { reconnected }) => states.push([state, reconnected]));
  return { client, sockets, states };
}

const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));

describe('wsBridgeClient', () => {
  it('builds the socket URL from the page URL', () => {
    assert.equal(
      wsUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:5173', search: '?token=a+b%2F' }),
      'ws://127.0.0.1:5173/bridge?token=a%20b%2F',
    );
    assert.equal(wsUrlFromLocation({ protocol: 'https:', host: 'x', search: '' }), 'wss://x/bridge?token=');
  });

  it('holds requests until open and resolves them by id', async () => {
    const { client, sockets } = setup();
    const answer = client.call('run/stop', {});
    assert.equal(sockets[0]!.sent.length, 0);
    sockets[0]!.open();
    assert.deepEqual(sockets[0]!.sent, [{ type: 'request', id: 1, method: 'run/stop', params: {} }]);
    sockets[0]!.receive({ type: 'response', id: 1, ok: true, result: { stopped: true } });
    assert.deepEqual(await answer, { stopped: true });
    const failing = client.call('run/stop', {});
    sockets[0]!.receive({ type: 'response', id: 2, ok: false, error: 'nope' });
    await assert.rejects(failing, /nope/);
    client.dispose();
  });

  it('validates events and drops ones that do not match the contract', () => {
    const { client, sockets } = setup();
    sockets[0]!.open();
    const got: unknown[] = [];
    client.on('run/changed', (p) => got.push(p));
    const errors = console.error;
    console.error = () => {};
    try {
      sockets[0]!.receive({ type: 'event', name: 'run/changed', payload: { runId: 'r', status: 'running' } });
      sockets[0]!.receive({ type: 'event', name: 'run/changed', payload: { runId: 'r', status: 'sleeping' } });
      sockets[0]!.receive({ type: 'event', name: 'nope/unknown', payload: {} });
      sockets[0]!.onmessage?.({ data: 'not json' });
    } finally {
      console.error = errors;
    }
    assert.deepEqual(got, [{ runId: 'r', status: 'running' }]);
    client.dispose();
  });

  it('reconnects after a drop: sent requests fail, unsent ones go out on the new socket', async () => {
    const { client, sockets, states } = setup();
    sockets[0]!.open();
    const lost = client.call('run/stop', {});
    sockets[0]!.drop();
    await assert.rejects(lost, /connection/i);
    const later = client.call('app/info', {});
    await tick();
    assert.equal(sockets.length, 2, 'a new socket after the backoff delay');
    sockets[1]!.open();
    assert.equal(sockets[1]!.sent[0]!.method, 'app/info');
    assert.deepEqual(states, [
      ['open', false],
      ['reconnecting', false],
      ['open', true],
    ]);
    client.dispose();
    await assert.rejects(later, /closed/);
    await tick();
    assert.equal(sockets.length, 2, 'no reconnect after dispose');
  });
});

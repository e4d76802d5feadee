import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { createOpenAiChatClient } from '../model/openaiChatClient.js';
import { NO_RETRY } from '../model/retryPolicy.js';
import { appSettingsPath, openAppSettingsDb } from './appSettingsDb.js';
import { fileSecretStore, safeStorageSecretStore, type SafeStorageLike } from './secretStore.js';

describe('app settings file', () => {
  let model: ScriptedModelServer;
  const homes: string[] = [];
  const home = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-appdb-'));
    homes.push(dir);
    return dir;
  };
  before(async () => {
    model = await startScriptedModelServer();
  });
  after(async () => {
    await model.close();
    for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  });

  it('is <home>/mapwright.sqlite in WAL mode, and keeps settings across a reopen', () => {
    const dir = home();
    const db = openAppSettingsDb(dir);
    db.set('model', { url: 'http://x/v1' });
    db.close();
    assert.equal(appSettingsPath(dir), join(dir, 'mapwright.sqlite'));
    const again = openAppSettingsDb(dir);
    assert.deepEqual(again.get('model'), { url: 'http://x/v1' });
    assert.equal(again.get('missing'), null);
    again.close();
  });

  it('a refusal learnt before a restart is not paid for again after it', async () => {
    const dir = home();
    model.reset();
    model.behave({ refuseTools: true });
    model.script([{ text: 'a' }, { text: 'b' }]);
    const tools = [{ name: 't_x', description: 'x', parameters: { type: 'object' } }];
    const ask = { messages: [{ role: 'user' as const, content: 'hi' }], tools };
    const callbacks = { signal: new AbortController().signal, onTextDelta: () => undefined };

    const first = openAppSettingsDb(dir);
    await createOpenAiChatClient({ baseUrl: model.url, model: 'm', capabilities: first.capabilities, retry: NO_RETRY }).streamTurn(
      ask,
      callbacks,
    );
    first.close();
    assert.equal(model.requests.length, 2);

    const second = openAppSettingsDb(dir);
    const client = createOpenAiChatClient({ baseUrl: model.url, model: 'm', capabilities: second.capabilities, retry: NO_RETRY });
    await client.streamTurn(ask, callbacks);
    assert.equal(model.requests.length, 3, 'straight to the JSON protocol');
    assert.equal(second.capabilities.get(client.endpoint)?.tools, 'refused');
    // The hash is the key: the URL itself is not stored.
    assert.ok(!readFileSync(join(dir, 'mapwright.sqlite')).toString('latin1').includes(`127.0.0.1:${model.port}`));
    client.forgetCapabilities();
    assert.equal(second.capabilities.get(client.endpoint), null);
    second.close();
  });
});

describe('secret stores', () => {
  it('web host: a 0600 file in a 0700 folder, values round-trip, null deletes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-secret-'));
    try {
      const store = fileSecretStore(dir);
      assert.equal(store.kind, 'file');
      store.set('a', 'sk-1');
      store.set('b', 'sk-2');
      store.set('a', null);
      assert.equal(store.get('a'), null);
      assert.equal(store.get('b'), 'sk-2');
      const file = join(dir, 'secrets', 'model-keys.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(dir, 'secrets')).mode & 0o777, 0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Electron: encrypted by safeStorage (nothing readable on disk); the file store when no keychain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-secret-'));
    try {
      // A stand-in for Electron's safeStorage: reversible, but not the plain text.
      const fake = (available: boolean): SafeStorageLike => ({
        isEncryptionAvailable: () => available,
        encryptString: (plain) => Buffer.from([...Buffer.from(plain)].map((b) => b ^ 0x5a)),
        decryptString: (data) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString(),
      });
      const store = safeStorageSecretStore(fake(true), dir);
      assert.equal(store.kind, 'os-keychain');
      store.set('k', 'sk-very-secret');
      assert.equal(store.get('k'), 'sk-very-secret');
      const onDisk = readFileSync(join(dir, 'secrets', 'model-keys.encrypted.json'), 'utf8');
      assert.ok(!onDisk.includes('sk-very-secret'));
      const fallback = safeStorageSecretStore(fake(false), dir);
      assert.equal(fallback.kind, 'file');
      assert.match(fallback.note, /^The OS keychain is not available/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * For tests: the scripted model server for the describe block that calls this, started in a
 * `before` hook and handed to `started`, closed in `after`; with `resetEachTest` its script and
 * request log are also cleared before each test (ahead of the block's own `beforeEach` hooks
 * registered later).
 */
import { after, before, beforeEach } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../scriptedModelServer.js';

export function scriptedServerSuite(started: (server: ScriptedModelServer) => void, opts: { resetEachTest?: boolean } = {}): void {
  let server: ScriptedModelServer | undefined;
  before(async () => {
    server = await startScriptedModelServer();
    started(server);
  });
  if (opts.resetEachTest) beforeEach(() => server!.reset());
  after(() => server?.close());
}

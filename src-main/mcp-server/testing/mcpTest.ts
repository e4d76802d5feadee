import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { ApprovalRequest } from '../../../src-shared/domain/chat.js';
import type { ApprovalMode } from '../../../src-shared/domain/toolLayer.js';
import { testTool } from '../../../src-shared/tools/testing/testTool.js';
import type { ToolDefinition } from '../../../src-shared/tools/toolSdk.js';
import { AuditRepo } from '../../store/auditRepo.js';
import { openProjectDb } from '../../store/openProjectDb.js';
import { testDispatcher } from '../../tool-host/testing/testDispatcher.js';
import { SocketTransport } from '../socketTransport.js';
import { ToolListWatch } from '../toolListWatch.js';

/** For the MCP server's tests: a read, a write, a destructive, a network, a user-only and a slow tool. */
export const mcpTestTools: ToolDefinition[] = [
  testTool({
    id: 'test.echo',
    title: 'Echo',
    description: 'Returns its input.',
    input: z.object({ n: z.number().int() }),
    safety: 'read',
    summary: (a) => `echo ${a.n}`,
    execute: async (a) => ({ n: a.n }),
  }),
  testTool({
    id: 'test.write',
    title: 'Write',
    description: 'A write.',
    input: z.object({ value: z.string() }),
    safety: 'write',
    summary: (a) => `write ${a.value}`,
    execute: async (a) => ({ written: a.value }),
  }),
  testTool({
    id: 'test.drop',
    title: 'Drop',
    description: 'A destructive one.',
    input: z.object({}),
    safety: 'destructive',
    summary: () => 'drop',
    execute: async () => 'dropped',
  }),
  testTool({
    id: 'test.fetch',
    title: 'Fetch',
    description: 'A network read.',
    input: z.object({}),
    safety: 'read',
    network: true,
    summary: () => 'fetch',
    execute: async () => 'fetched',
  }),
  testTool({
    id: 'test.private',
    title: 'Private',
    description: 'Only the person runs it.',
    input: z.object({}),
    safety: 'write',
    caller: 'user_only',
    summary: () => 'private',
    execute: async () => 'done',
  }),
  testTool({
    id: 'test.slow',
    title: 'Slow',
    description: 'Reports progress, then waits until it is stopped.',
    input: z.object({}),
    safety: 'read',
    summary: () => 'slow',
    execute: async (_a, ctx) => {
      ctx.progress(0.25, 'a quarter');
      ctx.progress(0.5, 'half');
      await new Promise<void>((_resolve, reject) => {
        if (ctx.signal.aborted) reject(new Error('stopped'));
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
      });
    },
  }),
];

/** A temporary folder removed when the test file ends. */
export function tempHome(prefix = 'mw-mcp-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The tool layer as the MCP server sees it, over the test tools: a real registry, broker and
 * dispatcher, auditing into a real project database (so the `client` column is exercised).
 */
export function mcpTestHost(home: string) {
  const db = openProjectDb(join(home, 'project.db'));
  after(() => db.close());
  const audit = new AuditRepo(db);
  const requests: ApprovalRequest[] = [];
  const waiters: ((r: ApprovalRequest) => void)[] = [];
  const state = { mode: 'ask' as ApprovalMode, window: true };
  const { dispatcher, broker, registry } = testDispatcher(mcpTestTools, {
    announce: (r) => {
      requests.push(r);
      waiters.splice(0).forEach((w) => w(r));
    },
    hooks: { audit: (e) => audit.add(e), policy: () => ({ mode: state.mode, askForReads: false }) },
  });
  broker.setPresence(() => state.window);
  /** The next approval request announced (one already pending counts). */
  const nextApproval = (): Promise<ApprovalRequest> => {
    const pending = broker.list()[0];
    return pending ? Promise.resolve(pending) : new Promise((resolve) => waiters.push(resolve));
  };
  // Tool-list changes reach clients as the app sends them: through a watch of the offered tools.
  const watch = new ToolListWatch(() =>
    registry
      .forModel()
      .map((t) => `${t.wireName}#${t.definitionHash}`)
      .join('\n'),
  );
  watch.check();
  const host = { registry, dispatcher, onToolsChanged: (l: () => void) => watch.subscribe(l) };
  return { host, broker, audit, requests, nextApproval, state, registry, watch };
}

/** An SDK client over the app's local socket, as `npm run mcp` reaches it. */
export async function socketClient(path: string, name = 'test-client', version = '1.2.3'): Promise<Client> {
  const socket = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
    const s = connect(path);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
  const client = new Client({ name, version });
  await client.connect(new SocketTransport(socket));
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
}

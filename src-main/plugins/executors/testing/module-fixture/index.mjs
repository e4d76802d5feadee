// A module plugin for moduleExecutor.test.ts: one tool per behaviour the executor must handle.
import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

/** @type {import('../../../../../plugins/mapwright-plugin.js').PluginModule} */
export default ({ defineTool }) => [
  defineTool({
    name: 'echo',
    async run(args, ctx) {
      ctx.progress(0.5, 'half way');
      ctx.log('echoing');
      console.log('console output goes to stderr, not the channel');
      return { args, handles: { project: ctx.project !== undefined, net: ctx.net !== undefined } };
    },
  }),
  defineTool({
    name: 'slow',
    async run(args, ctx) {
      await sleep(args.ms ?? 10_000, args.ignore_signal ? undefined : ctx.signal);
      return 'done';
    },
  }),
  defineTool({
    name: 'spin',
    run() {
      // Blocks the event loop: only the kill ends it.
      for (;;);
    },
  }),
  defineTool({
    name: 'crash',
    run() {
      process.stderr.write('about to crash\n');
      process.exit(3);
    },
  }),
  defineTool({
    name: 'throws',
    run() {
      throw new Error('the fixture failed on purpose');
    },
  }),
  defineTool({
    name: 'layers',
    async run(_args, ctx) {
      return (await ctx.project.layers()).map((l) => l.name);
    },
  }),
  defineTool({
    name: 'fetch',
    async run(args, ctx) {
      const answer = await ctx.net.fetch(args.url, { method: 'POST', body: 'hi' });
      return { status: answer.status, text: answer.text };
    },
  }),
  defineTool({
    name: 'write',
    run(args, ctx) {
      writeFileSync(join(ctx.workDir, 'out.txt'), 'written');
      return { result: { wrote: true }, files: args.files ?? ['out.txt'] };
    },
  }),
  defineTool({
    name: 'read',
    run(args) {
      try {
        return { ok: true, text: readFileSync(args.path, 'utf8').slice(0, 40) };
      } catch (err) {
        return { ok: false, code: err.code ?? null, message: err.message };
      }
    },
  }),
  defineTool({
    name: 'spawn',
    async run() {
      try {
        const { spawnSync } = await import('node:child_process');
        const r = spawnSync('/bin/echo', ['hello']);
        return { ok: !r.error, stdout: String(r.stdout ?? ''), code: r.error?.code ?? null };
      } catch (err) {
        return { ok: false, code: err.code ?? null, message: err.message };
      }
    },
  }),
  defineTool({
    name: 'net_direct',
    async run(args) {
      try {
        const r = await fetch(args.url);
        return { ok: true, status: r.status };
      } catch (err) {
        return { ok: false, message: String(err.cause?.code ?? err.message) };
      }
    },
  }),
  defineTool({
    name: 'malformed',
    run() {
      // Bypasses the host's console redirect: garbage on the channel.
      writeSync(1, 'this is not a message\n');
      return 'sent';
    },
  }),
];

/**
 * Runs the scripted model server on its own, for manual demos and for pointing a running
 * app at a predictable "model":
 *
 *   npx tsx e2e/model-server/cli.ts --port 0 --script replies.json
 *
 * The script file is a JSON array of replies (`{ "text": "…" }`, `{ "toolCalls": [...] }`,
 * `{ "reasoning": "…" }`, `{ "status": 429, "retryAfter": 2 }` …). Both wires are served:
 * `POST /v1/chat/completions` and `POST /v1/messages`. Endpoint quirks for trying the
 * fallbacks by hand: `--refuse-tools`, `--refuse-stream`, `--ignore-stream`, `--require-key KEY`.
 * The first line printed is the base URL.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startScriptedModelServer, type ScriptReply } from './scriptedModelServer.js';

const USAGE =
  'usage: tsx e2e/model-server/cli.ts [--port N] [--script replies.json] [--refuse-tools] [--refuse-stream] [--ignore-stream] [--require-key KEY]';

function loadScript(path: string): ScriptReply[] {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(parsed) || !parsed.every((step) => typeof step === 'object' && step !== null)) {
    throw new Error(`${path}: expected a JSON array of reply objects`);
  }
  return parsed as ScriptReply[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      script: { type: 'string' },
      'refuse-tools': { type: 'boolean', default: false },
      'refuse-stream': { type: 'boolean', default: false },
      'ignore-stream': { type: 'boolean', default: false },
      'require-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535 (${USAGE})`);
  const steps = values.script ? loadScript(values.script) : [];

  const server = await startScriptedModelServer({ port });
  server.script(steps);
  server.behave({
    refuseTools: values['refuse-tools'],
    refuseStream: values['refuse-stream'],
    ignoreStream: values['ignore-stream'],
    ...(values['require-key'] ? { requireKey: values['require-key'] } : {}),
  });
  console.log(server.url);
  console.log(`${steps.length} scripted repl${steps.length === 1 ? 'y' : 'ies'}; then "(scripted model: no more steps)".`);
  console.log(`Point the app at it: MAPWRIGHT_MODEL_URL=${server.url} MAPWRIGHT_MODEL=scripted-model`);

  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

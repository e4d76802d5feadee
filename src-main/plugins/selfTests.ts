import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { PluginSelfTest } from './readPluginRoot.js';

/** A self-test case that has not answered in this time has failed. */
const CASE_TIMEOUT_MS = 30_000;

/**
 * Runs a plugin version's own test cases through its tools, as the dispatcher would run them
 * but with nothing of the project (parameter rules are skipped: the cases name no project
 * layer) and outputs in a scratch folder removed after. Returns what failed, each naming its
 * file and case; empty when every case did what it says.
 */
export async function runSelfTests(
  namespace: string,
  tests: readonly PluginSelfTest[],
  defs: readonly ToolDefinition[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, test] of tests.entries()) {
    const label = `${path.basename(test.file)}: ${test.name ?? `case ${i + 1}`}`;
    const def = defs.find((d) => d.id === `${namespace}.${test.tool}`);
    if (!def) {
      problems.push(`${label}: no tool '${test.tool}'`);
      continue;
    }
    const problem = await runCase(def, test);
    if (problem) problems.push(`self-test ${label}: ${problem}`);
  }
  return problems;
}

async function runCase(def: ToolDefinition, test: PluginSelfTest): Promise<string | null> {
  const parsed = def.input.safeParse(test.arguments);
  if (!parsed.success) return `its arguments do not fit the tool: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  const signal = AbortSignal.timeout(CASE_TIMEOUT_MS);
  let value: unknown;
  try {
    value = await def.execute(parsed.data, { handles: {}, caller: 'user', signal, progress: () => {} } as never);
  } catch (err) {
    const code = err instanceof ToolFailure ? err.code : 'handler_error';
    if ('error' in test.expect)
      return code === test.expect.error ? null : `expected error '${test.expect.error}', got '${code}': ${(err as Error).message}`;
    return `expected success, got '${code}': ${(err as Error).message}`;
  }
  if ('error' in test.expect) return `expected error '${test.expect.error}', but it succeeded`;
  if (!test.expect.shape) return null;
  const shape = z.fromJSONSchema(test.expect.shape).safeParse(value);
  return shape.success
    ? null
    : `the result does not have the expected shape: ${shape.error.issues.map((i) => `${i.path.join('.') || 'result'}: ${i.message}`).join('; ')}`;
}

/** A scratch outputs folder for self-tests, and its removal. */
export function scratchOutputs(): { dir: string; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapwright-selftest-'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

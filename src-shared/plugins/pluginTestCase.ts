import { z } from 'zod';
import { formatIssues, plainErrors } from './manifestProblems.js';
import { jsonSchemaObject, jsonSchemaProblem } from './pluginManifest.js';

/**
 * A plugin's self-test (`tests/*.yaml`): call one of its tools with these arguments and
 * expect success (optionally a result of this JSON Schema shape) or a failure with this error
 * code. A file holds one case or a list of them. Only the static shape is checked here; the
 * manager runs them.
 */

const CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

const expectSchema = z
  .strictObject({
    ok: z.literal(true, { error: 'ok can only be true (expect an error with error: <code>)' }).optional(),
    shape: jsonSchemaObject.optional().describe('JSON Schema the result must match'),
    error: z
      .string()
      .regex(CODE, { error: (iss) => `error code '${String(iss.input)}' must be snake_case, like invalid_params` })
      .optional(),
  })
  .superRefine((e, ctx) => {
    if ((e.ok === undefined) === (e.error === undefined))
      ctx.addIssue({ code: 'custom', message: 'give either ok: true or error: <code>' });
    if (e.shape !== undefined && e.error !== undefined)
      ctx.addIssue({ code: 'custom', path: ['shape'], message: 'a shape goes with ok: true only' });
    const problem = e.shape ? jsonSchemaProblem(e.shape) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['shape'], message: problem });
  })
  .transform((e): PluginTestExpectation => (e.error !== undefined ? { error: e.error } : { ok: true, shape: e.shape }));

export type PluginTestExpectation = { ok: true; shape?: Record<string, unknown> | undefined } | { error: string };

export const pluginTestCaseSchema = z.strictObject({
  name: z.string().trim().min(1).max(120).optional().describe('What the case shows, for the report'),
  tool: z.string().regex(CODE, { error: (iss) => `tool '${String(iss.input)}' must be the short name of one of the plugin's tools` }),
  arguments: z.record(z.string(), z.unknown()).default({}),
  expect: expectSchema,
});

export type PluginTestCase = z.output<typeof pluginTestCaseSchema>;

export const MAX_CASES_PER_FILE = 50;

/**
 * Checks one parsed test file (a case or a list of cases). Problems read
 * `tests/greet.yaml: [1].expect: give either ok: true or error: <code>`.
 */
export function checkPluginTestFile(
  value: unknown,
  file = 'test',
): { ok: true; cases: PluginTestCase[] } | { ok: false; problems: string[] } {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > MAX_CASES_PER_FILE)
    return { ok: false, problems: [`${file}: give 1 to ${MAX_CASES_PER_FILE} cases`] };
  const cases: PluginTestCase[] = [];
  const problems: string[] = [];
  list.forEach((item, i) => {
    const parsed = pluginTestCaseSchema.safeParse(item, { error: plainErrors });
    if (parsed.success) cases.push(parsed.data);
    else problems.push(...formatIssues(parsed.error.issues, testCaseLabel(value, i)).map((p) => `${file}: ${p}`));
  });
  return problems.length ? { ok: false, problems } : { ok: true, cases };
}

/** How a case is named inside its file: `[i]` in a list, nothing when the file is one case. */
export function testCaseLabel(file: unknown, index: number): string {
  return Array.isArray(file) ? `[${index}]` : '';
}

import { z } from 'zod';
import { templateParams } from './argTemplate.js';

/**
 * How a plugin tool runs: five executors, told apart by `type`. Only their static shape lives
 * here (nothing is started); paths are checked lexically here and against the disk, through
 * symlinks, when the package is read (src-main/plugins/packagePaths.ts).
 */

/**
 * Why a path written in a manifest does not stay inside its package, or null. Forward slashes
 * only (a manifest must work on every OS); no absolute path, no `..`.
 */
export function packagePathProblem(path: string): string | null {
  if (path === '') return 'is empty';
  if (path.includes('\\')) return `'${path}' uses backslashes; write / between folders`;
  if (isAbsolutePath(path)) return `'${path}' is absolute; give a path inside the plugin folder`;
  if (path.split('/').includes('..')) return `'${path}' leaves the plugin folder ('..')`;
  return null;
}

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * A program to run: absolute (a system program, `/usr/bin/gdaldem`), a bare name looked up on
 * PATH when it runs (`gdaldem`), or a path inside the package (`bin/run.sh`).
 */
export function programProblem(program: string): string | null {
  if (program.trim() === '') return 'the program (first item) is empty';
  if (program.includes('{') || program.includes('}'))
    return `the program '${program}' cannot be a placeholder: the model never chooses what runs`;
  if (isAbsolutePath(program) || !/[/\\]/.test(program)) return null;
  return packagePathProblem(program);
}

/** A package file the executor needs, e.g. a `.proto` or a module's entry. */
const packageFile = (extensions: readonly string[]) =>
  z
    .string()
    .max(500)
    .superRefine((path, ctx) => {
      const problem =
        packagePathProblem(path) ??
        (extensions.some((e) => path.endsWith(e)) ? null : `'${path}' must end with ${extensions.join(' or ')}`);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(`A file inside the plugin folder, relative to it, ending ${extensions.join(' or ')}`);

/** A file a command writes in its own fresh folder: one plain name, no folders, no glob. */
const OUTPUT_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

const templateItem = z.string().max(4096);

export const commandExecutorSchema = z
  .strictObject({
    type: z.literal('command'),
    argv: z
      .array(templateItem, {
        error: (iss) =>
          typeof iss.input === 'string' ? 'argv must be a list (the program, then one item per argument), never a shell string' : undefined,
      })
      .min(1)
      .max(200)
      .describe('The program, then one item per argument; {param} placeholders are filled from the arguments. No shell ever parses it.'),
    outputs: z
      .array(
        z.string().regex(OUTPUT_NAME, { error: (iss) => `output '${String(iss.input)}' must be a plain file name (no folder, no glob)` }),
      )
      .max(20)
      .optional()
      .describe('Files the command writes in its working folder, loaded as layers when it succeeds'),
  })
  .superRefine((ex, ctx) => {
    const program = ex.argv[0] ?? '';
    const problem = programProblem(program);
    if (problem) ctx.addIssue({ code: 'custom', path: ['argv', 0], message: problem });
    ex.argv.forEach((item, i) => {
      const t = templateParams(item);
      if (!t.ok) ctx.addIssue({ code: 'custom', path: ['argv', i], message: t.message });
    });
    const dup = ex.outputs?.find((o, i) => ex.outputs?.indexOf(o) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['outputs'], message: `output '${dup}' is listed twice` });
  })
  .describe(
    'Runs a program with an argv template in a fresh folder; the model reads {stdout}. Files named in outputs are loaded as layers.',
  );

export const httpExecutorSchema = z
  .strictObject({
    type: z.literal('http'),
    method: z.enum(['GET', 'POST']),
    url: z.string().max(2000).describe('http(s) URL; {param} placeholders only in the path and query'),
    body: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'POST only: a JSON object; {param} placeholders in its strings are filled (a string that is exactly {param} takes the value as it is)',
      ),
  })
  .superRefine((ex, ctx) => {
    const problem = urlProblem(ex.url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    if (ex.body && ex.method !== 'POST') ctx.addIssue({ code: 'custom', path: ['body'], message: 'a body is sent with POST only' });
    for (const text of ex.body ? jsonStrings(ex.body) : []) {
      const t = templateParams(text);
      if (!t.ok) ctx.addIssue({ code: 'custom', path: ['body'], message: t.message });
    }
  })
  .describe(
    'Sends a request to the URL the plugin declares, through the SSRF guard; the person approves its origin once per plugin version.',
  );

function urlProblem(url: string): string | null {
  const m = /^(https?):\/\/([^/?#]*)(.*)$/s.exec(url);
  if (!m) return `'${url}' is not an http:// or https:// URL`;
  const [, scheme, authority = '', rest = ''] = m;
  if (/[{}]/.test(authority)) return `placeholders go in the path or query only, not in the host ('${authority}')`;
  if (authority.includes('@')) return 'no user name or password in the URL';
  if (rest.includes('#')) return 'no #fragment in the URL (it is never sent)';
  const t = templateParams(rest);
  if (!t.ok) return t.message;
  try {
    // Placeholders filled with a stand-in, to check the rest is a URL at all.
    const parsed = new URL(`${scheme}://${authority}${rest.replace(/\{[A-Za-z0-9_]+\}/g, 'x')}`);
    return parsed.hostname ? null : `'${url}' has no host`;
  } catch {
    return `'${url}' is not a valid URL`;
  }
}

/** Every string inside a JSON value, where body placeholders may sit. */
export function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(jsonStrings);
  return [];
}

const DOTTED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export const grpcExecutorSchema = z
  .strictObject({
    type: z.literal('grpc'),
    proto: packageFile(['.proto']),
    service: z.string().regex(DOTTED_NAME).describe('The service with its package, e.g. terrain.v1.Slope'),
    method: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .describe('A unary method of the service'),
    address: z
      .string()
      .regex(ADDRESS)
      .refine((a) => Number(ADDRESS.exec(a)?.[2]) <= 65535, 'the port must be at most 65535')
      .describe('host:port of the server'),
  })
  .describe('Calls a unary gRPC method from a .proto in the package, through the SSRF guard.');

const mcpStdio = z.strictObject({
  command: z.string().max(500),
  args: z.array(z.string().max(4096)).max(100).default([]),
});

export const mcpExecutorSchema = z
  .strictObject({
    type: z.literal('mcp'),
    stdio: mcpStdio.optional().describe('An MCP server started as a process (stdio transport)'),
    url: z.string().max(2000).optional().describe('An MCP server over streamable HTTP'),
    tool: z
      .string()
      .min(1, 'is empty')
      .max(200)
      .refine((name) => ![...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'must not contain control characters')
      .optional()
      .describe(
        "The server's own name of the one tool this entry binds; default the entry's name. When the entry declares no parameters, the server's inputSchema is used.",
      ),
  })
  .superRefine((ex, ctx) => {
    if ((ex.stdio === undefined) === (ex.url === undefined)) ctx.addIssue({ code: 'custom', message: 'give exactly one of stdio or url' });
    const problem = ex.stdio ? programProblem(ex.stdio.command) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['stdio', 'command'], message: problem });
    if (ex.url !== undefined) {
      const urlIssue = /[{}]/.test(ex.url) ? 'an MCP URL takes no placeholders' : urlProblem(ex.url);
      if (urlIssue) ctx.addIssue({ code: 'custom', path: ['url'], message: urlIssue });
    }
  })
  .describe(
    "Binds one tool of an MCP server (stdio or streamable HTTP) under the plugin's namespace. Its annotations are untrusted hints: it counts as write and network unless the person marks it read-only.",
  );

export const moduleExecutorSchema = z
  .strictObject({
    type: z.literal('module'),
    entry: packageFile(['.js', '.mjs', '.cjs']),
  })
  .describe('A JavaScript module written with the plugin SDK, run in a separate plugin-host process.');

export const EXECUTOR_TYPES = ['command', 'http', 'grpc', 'mcp', 'module'] as const;

export const pluginExecutorSchema = z.discriminatedUnion('type', [
  commandExecutorSchema,
  httpExecutorSchema,
  grpcExecutorSchema,
  mcpExecutorSchema,
  moduleExecutorSchema,
]);

export type PluginExecutor = z.output<typeof pluginExecutorSchema>;
export type ExecutorType = PluginExecutor['type'];

/** Whether calls of this executor leave the machine (the tool must say `network: true`). */
export function executorUsesNetwork(ex: PluginExecutor): boolean {
  return ex.type === 'http' || ex.type === 'grpc' || (ex.type === 'mcp' && ex.url !== undefined);
}

/** Templates filled from the arguments, by where they sit, to check their placeholders name parameters. */
export function executorTemplates(ex: PluginExecutor): { path: (string | number)[]; template: string }[] {
  switch (ex.type) {
    case 'command':
      return ex.argv.map((template, i) => ({ path: ['argv', i], template }));
    case 'http': {
      const rest = /^https?:\/\/[^/?#]*(.*)$/s.exec(ex.url)?.[1] ?? '';
      return [
        { path: ['url'], template: rest },
        ...(ex.body ? jsonStrings(ex.body).map((template) => ({ path: ['body'], template })) : []),
      ];
    }
    default:
      return [];
  }
}

/**
 * The files of the package this executor needs, as written (lexically safe already); the
 * reader checks they exist inside the folder once symlinks are resolved.
 */
export function executorPackageFiles(ex: PluginExecutor): { path: (string | number)[]; file: string }[] {
  switch (ex.type) {
    case 'command':
      return isPackageProgram(ex.argv[0] ?? '') ? [{ path: ['argv', 0], file: ex.argv[0] ?? '' }] : [];
    case 'mcp':
      return ex.stdio && isPackageProgram(ex.stdio.command) ? [{ path: ['stdio', 'command'], file: ex.stdio.command }] : [];
    case 'grpc':
      return [{ path: ['proto'], file: ex.proto }];
    case 'module':
      return [{ path: ['entry'], file: ex.entry }];
    default:
      return [];
  }
}

/** A program given by a path inside the package (not absolute, not a bare name on PATH). */
function isPackageProgram(program: string): boolean {
  return !isAbsolutePath(program) && /[/\\]/.test(program);
}

/** Absolute programs the executor runs; the reader checks they exist. */
export function executorSystemPrograms(ex: PluginExecutor): { path: (string | number)[]; file: string }[] {
  const program = ex.type === 'command' ? ex.argv[0] : ex.type === 'mcp' ? ex.stdio?.command : undefined;
  if (program === undefined || !isAbsolutePath(program)) return [];
  return [{ path: ex.type === 'command' ? ['argv', 0] : ['stdio', 'command'], file: program }];
}

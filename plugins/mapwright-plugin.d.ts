/**
 * The Mapwright plugin SDK for `module` tools (executor `{ type: module, entry: index.mjs }`).
 *
 * A module's default export is a function that receives the SDK and returns its tools:
 *
 * ```js
 * // @ts-check
 * /** @type {import('mapwright-plugin').PluginModule} *\/
 * export default ({ defineTool }) => [
 *   defineTool({
 *     name: 'count_words',
 *     async run(args, ctx) {
 *       const layers = await ctx.project?.layers();
 *       return { words: String(args.text ?? '').split(/\s+/).filter(Boolean).length, layers: layers?.length };
 *     },
 *   }),
 * ];
 * ```
 *
 * The module runs in a separate plugin-host process, never in Mapwright's main process: under
 * Node's permission model (it may read only its own folder and the call's working folder, and
 * write only there; no child processes, no worker threads, no native addons) and, where
 * bubblewrap works, in a sandbox without network. It reaches the app only through the handles
 * its plugin.yaml `requires` lists, each a remote call to main.
 *
 * Each tool named here must also be declared in plugin.yaml (its parameters, safety, title…):
 * the manifest is what the model and the person see; the module only implements it.
 */

/** Any value JSON can carry: what a tool returns to the model. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One layer of the open project, as a plugin may see it (read-only facts). */
export interface LayerSummary {
  name: string;
  /** `vector`, `raster` or `table`. */
  kind: string;
  /** The layer's data source (a file path or a URL). */
  source: string;
  geometryType?: string;
  featureCount?: number;
  /** e.g. `EPSG:4326`. */
  crs?: string;
}

/** Given when plugin.yaml `requires: [project]`. */
export interface ProjectHandle {
  /** The layers of the open project, top first. */
  layers(): Promise<LayerSummary[]>;
}

export interface FetchInit {
  /** `GET` unless given. */
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface FetchAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as text (the app caps its size). */
  text: string;
}

/**
 * Given when plugin.yaml `requires: [net]`. The request is made by Mapwright's main process,
 * through its SSRF guard (no private or local addresses unless the person allowed them); the
 * plugin host itself has no network where the sandbox works.
 */
export interface NetHandle {
  fetch(url: string, init?: FetchInit): Promise<FetchAnswer>;
}

/** Handles by the name plugin.yaml `requires` gives them. */
export interface HandleMap {
  project: ProjectHandle;
  net: NetHandle;
}

/** What one call of a tool gets besides its arguments. */
export interface ToolContext {
  /** Aborted when the person presses Stop or the call times out; stop soon after (the host is killed 0.5 s later). */
  signal: AbortSignal;
  /** The call's own folder (absolute): the only place it may write. Files returned in `files` must be here. */
  workDir: string;
  /** Reports progress: `fraction` from 0 to 1, and a short message the person sees. */
  progress(fraction: number, message: string): void;
  /** A line for the plugin's log (not shown to the model). */
  log(text: string): void;
  /** Read-only view of the project; `undefined` unless plugin.yaml requires `project`. */
  project?: ProjectHandle;
  /** Network through main; `undefined` unless plugin.yaml requires `net`. */
  net?: NetHandle;
}

/**
 * What `run` returns: any JSON value (the result the model reads), or `{ result, files }` where
 * `files` are names of files the call wrote in `ctx.workDir`, loaded as layers afterwards.
 */
export type ToolOutput = JsonValue | { result: JsonValue; files: string[] };

export interface ToolDefinition<Args = Record<string, unknown>> {
  /** The tool's name as in plugin.yaml: lowercase snake_case (`count_words`). */
  name: string;
  /**
   * Runs one call. `args` were checked against the parameters plugin.yaml declares before the
   * call reached the module. A thrown error becomes the call's error (its message, and the
   * stack lines inside the plugin's folder).
   */
  run(args: Args, ctx: ToolContext): ToolOutput | Promise<ToolOutput>;
}

declare const definedTool: unique symbol;

/** A tool as `defineTool` returns it. */
export type DefinedTool<Args = Record<string, unknown>> = ToolDefinition<Args> & { readonly [definedTool]?: true };

/** The SDK a module's default export receives. */
export interface PluginSdk {
  /**
   * Declares a tool; returns it unchanged (the point is its type). `Args` defaults to a record
   * of unknown values: name it (`defineTool<{ text: string }>(…)` or a JSDoc `@param`) for more.
   */
  defineTool<Args = Record<string, unknown>>(tool: ToolDefinition<Args>): DefinedTool<Args>;
}

/** What a module's default export returns: its tools, each made with `defineTool`. */
export type ToolList = ReadonlyArray<{ readonly name: string; readonly [definedTool]?: true }>;

/** The type of a module's default export. */
export type PluginModule = (sdk: PluginSdk) => ToolList | Promise<ToolList>;

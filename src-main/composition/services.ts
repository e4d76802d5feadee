import type { PluginRuntime } from '../plugins/pluginSessions.js';
import type { Emit, MethodHandlers } from '../../src-shared/bridge/contract.js';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import type { SecretStore } from '../settings/secretStore.js';
import type { WorkerLauncher } from '../worker-host/launcher.js';

export type HostKind = 'web' | 'electron';

export interface ServicesOptions {
  /** The data folder (MAPWRIGHT_HOME or the platform's app-data folder). */
  home: string;
  host: HostKind;
  launchWorker: WorkerLauncher;
  /** Prefix the renderer puts before `data/…`, `tiles/…` and `assets/…` URLs. */
  dataBase: string;
  /** Query string the renderer appends to those URLs (the web host's token), or ''. */
  dataQuery: string;
  /** Folder holding the shipped `assets/` (basemap and icons). */
  assetsDir: string;
  /** better-sqlite3 binary built for Electron's ABI, when running under Electron. */
  sqliteNativeBinding?: string;
  /** Where model API keys are kept: Electron passes its safeStorage-backed store; the web host none (a 0600 file). */
  secretStore?: SecretStore;
  /**
   * Exact origins (`scheme://host:port`) the person allowed to resolve to non-public
   * addresses (a NAS, a local tile server): `MAPWRIGHT_ALLOW_ORIGINS`. Approval is still asked.
   */
  allowedOrigins?: ReadonlySet<string>;
  /** How the plugin host of module plugins is started: Electron gives itself with runAsNode; the web host, Node. */
  pluginRuntime?: Omit<PluginRuntime, 'hostEntry'>;
  /** The project file to open; default: `projects/untitled.mapwright` in `home` (projectSession.ts picks the last one). */
  projectPath?: string;
  /** Given by projectSession.ts: switch every service to another project after the current call answers. */
  switchProject?: (path: string) => void;
  /** The host's native open dialog (Electron): absolute paths the person picked, none if cancelled. */
  chooseFiles?: () => Promise<string[]>;
}

/** An HTTP-like answer for the data routes, shared by the web host and the Electron protocol. */
export interface DataResponse {
  status: number;
  contentType: string;
  body: Uint8Array | string;
  /**
   * Extra response headers (`ETag`, `Cache-Control`), sent by both hosts. Without a
   * `Cache-Control` here the hosts answer `no-store`.
   */
  headers?: Record<string, string>;
}

/** What a host passes along from the request, for routes that can answer without work. */
export interface DataRequest {
  /** The request's `If-None-Match`: a route whose ETag matches answers 304 without producing the body. */
  ifNoneMatch?: string;
}

/**
 * Everything a host needs from main's services. A host adds only a transport: it parses
 * nothing itself and passes raw payloads to `invoke`, which validates them with the contract.
 */
export interface Services {
  handlers: MethodHandlers;
  /** Validate `params` against the contract, run the method, return its result or throw. */
  invoke(method: string, params: unknown): Promise<unknown>;
  /** Serve `data/layers/ID.geojson`, `tiles/ID/Z/X/Y.png` and `assets/…` (path without leading slash). */
  serveData(path: string, request?: DataRequest): Promise<DataResponse>;
  /** Main's own way to run a tool as the person (never reachable from the renderer). */
  runForPerson(entry: string, params: Record<string, unknown>): Promise<ToolResult>;
  /**
   * Stores a file dropped on the map (web host: bytes, no path) in the outputs folder's
   * `imports/`; `batch` groups the files of one drop. The token loads it with `files/load`.
   */
  importFile?(req: {
    batch?: string;
    name: string;
    body: AsyncIterable<Uint8Array>;
  }): Promise<{ batch: string; name: string; token: string }>;
  /** Register a renderer connection's push channel; returns the unsubscribe. */
  connect(emit: Emit): () => void;
  close(): Promise<void>;
}

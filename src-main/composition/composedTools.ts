import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { createCodeTools } from '../code/codeTools.js';
import { createPythonTools } from '../code/pythonTools.js';
import type { EgressGate } from '../net/egressGate.js';
import type { PrivatePaths } from '../security/privatePaths.js';
import type { ProjectStore } from '../store/projectStore.js';
import { createWebSourceTools } from '../web/webSourceTools.js';
import { createWebTools } from '../web/webTools.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';

/**
 * What the tools built from services need (code runners, web reads, network map sources):
 * they live outside tools/ because they start processes or reach the network through main's
 * guard, and are handed to the registry as extra tools.
 */
export interface ComposedToolDeps {
  /** The data folder. */
  home: string;
  store: ProjectStore;
  /** The project's outputs folder. */
  outputsDir(): string;
  privatePaths: PrivatePaths;
  /** GDAL's one way out; `allowedOrigins` are the person's non-public origins for the SSRF guard. */
  egress: EgressGate;
  allowedOrigins: ReadonlySet<string>;
  worker: GisWorkerClient;
  /** Where the built child entries live (`dist/main`: plugin-host.mjs, …). */
  distMainDir: string;
  /** The runtime that starts Node children: Node, or Electron as Node. */
  runtime?: { execPath?: string; runAsNode?: boolean };
}

/** Every composed tool, in one list for the registry. */
export function composedTools(d: ComposedToolDeps): ToolDefinition[] {
  return [...createCodeTools(d), ...createPythonTools(d), ...createWebTools(d), ...createWebSourceTools(d)];
}
